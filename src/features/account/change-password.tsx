import { useAction } from "convex/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import { passwordRule } from "@convex/rules/profile";
import { Form, useAppForm } from "@/components/form";
import { errorMessage } from "@/lib/errors";
import { getLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

const changeSchema = z.object({
  currentPassword: z.string().check(z.minLength(1, { error: () => m.rule_enter_password() })),
  newPassword: passwordRule,
});

/**
 * Change password: the current one, then the new one. This device stays signed in; the server signs
 * out every other one and tells the account by email or SMS.
 */
export function ChangePassword() {
  const change = useAction(api.passwordChange.change);
  const form = useAppForm({
    defaultValues: { currentPassword: "", newPassword: "" },
    validators: { onSubmit: changeSchema },
    onSubmit: async ({ value, formApi }) => {
      try {
        await change({ ...value, language: getLocale() });
        toast.success(m.security_password_changed());
        formApi.reset();
      } catch (e) {
        toast.error(errorMessage(e, m.security_password_failed()));
      }
    },
  });
  return (
    <section
      aria-labelledby="change-password"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="change-password" className="text-lg font-semibold">
        {m.security_change_password()}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{m.security_change_password_text()}</p>
      <Form className="mt-4 max-w-md space-y-4" onSubmit={() => form.handleSubmit()}>
        <form.AppField name="currentPassword">
          {(f) => (
            <f.PasswordField
              label={m.security_current_password()}
              autoComplete="current-password"
              required
            />
          )}
        </form.AppField>
        <form.AppField name="newPassword">
          {(f) => <f.NewPasswordField label={m.reset_new_password()} />}
        </form.AppField>
        <form.AppForm>
          <form.SubmitButton label={m.security_change_password()} pendingLabel={m.please_wait()} />
        </form.AppForm>
      </Form>
    </section>
  );
}
