import { useAuthActions } from "@convex-dev/auth/react";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import * as z from "zod/mini";
import { InlineAlert } from "@/components/ui/states";
import { ADMIN_REDIRECT_DELAY_MS } from "@/lib/constants";
import { Form, useAppForm } from "@/components/form";
import { errorData, errorMessage } from "@/lib/errors";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

const adminLoginSchema = z.object({
  username: z
    .string()
    .check(z.trim(), z.minLength(1, { error: () => m.admin_login_username_required() })),
  password: z.string().check(z.minLength(1, { error: () => m.admin_login_password_required() })),
  code: z.string(),
});

type Outcome = { kind: "ok" } | { kind: "failed"; text: string } | null;

export default function AdminLoginPage() {
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>(null);
  // the server asked for the second factor: the password was right (twoFactor.ts)
  const [askCode, setAskCode] = useState(false);

  useEffect(() => {
    if (outcome?.kind !== "ok") return;
    const timer = setTimeout(() => navigate(paths.adminPanel()), ADMIN_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate]);

  const form = useAppForm({
    defaultValues: { username: "", password: "", code: "" },
    validators: { onSubmit: adminLoginSchema },
    onSubmit: async ({ value }) => {
      setOutcome(null);
      try {
        await signIn("admin", {
          username: value.username.trim(),
          password: value.password,
          flow: "signIn",
          ...(askCode ? { code: value.code } : {}),
        });
        setOutcome({ kind: "ok" });
      } catch (e) {
        const code = errorData(e)?.code;
        if (code === "TWO_FACTOR_REQUIRED") {
          setAskCode(true);
          return;
        }
        setOutcome({
          kind: "failed",
          text:
            code === "INVALID_CODE" || code === "TOO_MANY_ATTEMPTS"
              ? errorMessage(e, m.admin_login_failed())
              : m.admin_login_failed(),
        });
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
          {askCode && (
            <form.AppField name="code">
              {(f) => (
                <f.TextField
                  label={m.admin_login_code()}
                  hint={m.admin_login_code_hint()}
                  autoComplete="one-time-code"
                  autoCapitalize="none"
                  autoFocus
                  maxLength={24}
                  required
                />
              )}
            </form.AppField>
          )}
          {outcome?.kind === "failed" && <InlineAlert tone="error">{outcome.text}</InlineAlert>}
          {outcome?.kind === "ok" && <InlineAlert tone="success">{m.admin_login_ok()}</InlineAlert>}
          <form.AppForm>
            <form.SubmitButton
              label={m.admin_login_submit()}
              className="w-full"
              disabled={outcome?.kind === "ok"}
            />
          </form.AppForm>
        </Form>
        <p className="mt-6 text-sm text-slate-600">
          {m.admin_login_forgot()}{" "}
          <code lang="en" translate="no" className="font-mono">
            npm run create-admin
          </code>
        </p>
      </div>
    </main>
  );
}
