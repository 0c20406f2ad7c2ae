import { useAuthActions } from "@convex-dev/auth/react";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import * as z from "zod/mini";
import { InlineAlert } from "@/components/ui/states";
import { ADMIN_REDIRECT_DELAY_MS } from "@/lib/constants";
import { Form, useAppForm } from "@/components/form";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

const adminLoginSchema = z.object({
  username: z
    .string()
    .check(z.trim(), z.minLength(1, { error: () => m.admin_login_username_required() })),
  password: z.string().check(z.minLength(1, { error: () => m.admin_login_password_required() })),
});

export default function AdminLoginPage() {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<"ok" | "failed" | null>(null);

  useEffect(() => {
    if (outcome !== "ok") return;
    const timer = setTimeout(() => navigate(paths.adminPanel()), ADMIN_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate]);

  const form = useAppForm({
    defaultValues: { username: "", password: "" },
    validators: { onSubmit: adminLoginSchema },
    onSubmit: async ({ value }) => {
      setOutcome(null);
      try {
        await signIn("admin", {
          username: value.username.trim(),
          password: value.password,
          flow: "signIn",
        });
        setOutcome("ok");
      } catch {
        setOutcome("failed");
      }
    },
  });

  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-8">
      <div className="w-full max-w-sm rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-center text-2xl font-semibold text-slate-900">
          {m.admin_login_title()}
        </h1>
        <Form className="mt-6 space-y-4" onSubmit={() => form.handleSubmit()}>
          <form.AppField name="username">
            {(f) => (
              <f.TextField
                label={m.admin_login_username()}
                autoComplete="username"
                autoCapitalize="none"
                required
              />
            )}
          </form.AppField>
          <form.AppField name="password">
            {(f) => (
              <f.PasswordField
                label={m.label_password()}
                autoComplete="current-password"
                required
              />
            )}
          </form.AppField>
          {outcome === "failed" && <InlineAlert tone="error">{m.admin_login_failed()}</InlineAlert>}
          {outcome === "ok" && <InlineAlert tone="success">{m.admin_login_ok()}</InlineAlert>}
          <form.AppForm>
            <form.SubmitButton
              label={m.admin_login_submit()}
              className="w-full"
              disabled={outcome === "ok"}
            />
          </form.AppForm>
        </Form>
        <p className="mt-6 text-sm text-slate-600">{m.admin_login_forgot()}</p>
      </div>
    </main>
  );
}
