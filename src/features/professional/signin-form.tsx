import { useAuthActions } from "@convex-dev/auth/react";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import * as z from "zod/mini";
import { InlineAlert } from "@/components/ui/states";
import { Form, useAppForm } from "@/components/form";
import { paths } from "@/lib/paths";
import { errorMessage } from "@/lib/errors";
import { m } from "@/i18n/paraglide/messages";

/** Spec §5: both required; the email input is plain text with no format check. */
const signinSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, { error: () => m.signin_email_required() })),
  password: z.string().check(z.minLength(1, { error: () => m.signin_password_required() })),
});

export default function SigninForm() {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  // the spec's text, and under it the server's reason (e.g. a wrong password)
  const [failed, setFailed] = useState<string | null>(null);

  const form = useAppForm({
    defaultValues: { email: "", password: "" },
    validators: { onSubmit: signinSchema },
    onSubmit: async ({ value }) => {
      setFailed(null);
      try {
        await signIn("professional", {
          email: value.email.trim(),
          password: value.password,
          flow: "signIn",
        });
        navigate(paths.professionalDashboard());
      } catch (e) {
        setFailed(errorMessage(e, ""));
      }
    },
  });

  return (
    <Form className="space-y-4" onSubmit={() => form.handleSubmit()}>
      <form.AppField name="email">
        {(f) => (
          <f.TextField
            label={m.field_contact()}
            type="text"
            autoComplete="username"
            inputMode="email"
            required
          />
        )}
      </form.AppField>
      <form.AppField name="password">
        {(f) => (
          <f.PasswordField label={m.label_password()} autoComplete="current-password" required />
        )}
      </form.AppField>
      {failed !== null && (
        <InlineAlert tone="error">
          {m.signin_failed()}
          {failed && <span className="mt-1 block text-sm font-normal">{failed}</span>}
        </InlineAlert>
      )}
      <form.AppForm>
        <form.SubmitButton
          label={m.signin_button()}
          pendingLabel={m.signin_busy()}
          className="w-full"
        />
      </form.AppForm>
    </Form>
  );
}
