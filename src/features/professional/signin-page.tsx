import { useAuthActions } from "@convex-dev/auth/react";
import { useConvexAuth, useQuery } from "convex/react";
import { useState } from "react";
import { Navigate, useNavigate } from "react-router-dom";
import { Link } from "@/components/link";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
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

export default function ProfessionalSigninPage() {
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  if (viewer?.role === "professional")
    return <Navigate to={paths.professionalDashboard()} replace />;
  return <SigninForm />;
}

function SigninForm() {
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
    <main className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-center text-2xl font-semibold text-slate-900">{m.signin_title()}</h1>
        <Form className="mt-6 space-y-4" onSubmit={() => form.handleSubmit()}>
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
              <f.PasswordField
                label={m.label_password()}
                autoComplete="current-password"
                required
              />
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
        <div className="mt-4 flex flex-col text-center text-sm">
          <Link
            to={paths.codeSignin("professional")}
            className="inline-flex min-h-11 items-center justify-center font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            {m.code_signin_link()}
          </Link>
          <Link
            to={paths.forgotPassword("professional")}
            className="inline-flex min-h-11 items-center justify-center text-brand-700 underline-offset-2 hover:underline"
          >
            {m.reset_forgot_link()}
          </Link>
          <Link
            to={paths.customerSignup()}
            className="inline-flex min-h-11 items-center justify-center text-brand-700 underline-offset-2 hover:underline"
          >
            {m.signin_register_user()}
          </Link>
          <Link
            to={paths.professionalSignup()}
            className="inline-flex min-h-11 items-center justify-center text-brand-700 underline-offset-2 hover:underline"
          >
            {m.signin_register_professional()}
          </Link>
        </div>
      </div>
    </main>
  );
}
