import { useAuthActions } from "@convex-dev/auth/react";
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import * as z from "zod/mini";
import { passwordRule } from "@convex/rules/profile";
import { isSetupTokenShaped } from "@convex/rules/adminSetup";
import { Form, useAppForm } from "@/components/form";
import { InlineAlert } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { paths } from "@/lib/paths";
import { useWaitForAuthenticated } from "@/lib/use-wait-for-auth";
import { m } from "@/i18n/paraglide/messages";

const setupSchema = z.object({ newPassword: passwordRule });

/**
 * An admin's one-time setup link (`npm run create-admin`): a new password, which signs the admin in;
 * the admin panel then asks for two-factor setup (admin-shell.tsx), as for any admin without it.
 */
export default function AdminSetupPage() {
  const { signIn } = useAuthActions();
  const waitForAuthenticated = useWaitForAuthenticated();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [problem, setProblem] = useState<string | null>(
    isSetupTokenShaped(token) ? null : m.admin_setup_no_link(),
  );

  const form = useAppForm({
    defaultValues: { newPassword: "" },
    validators: { onSubmit: setupSchema },
    onSubmit: async ({ value }) => {
      setProblem(null);
      try {
        await signIn("admin", { flow: "setup", setupToken: token, newPassword: value.newPassword });
        // the admin panel sends a visitor to /admin-login: it opens once the server has the session
        await waitForAuthenticated();
        navigate(paths.adminPanel(), { replace: true });
      } catch (e) {
        setProblem(errorMessage(e, m.admin_setup_failed()));
      }
    },
  });

  return (
    <main className="flex min-h-dvh items-start justify-center bg-slate-100 px-4 py-8 sm:items-center">
      <div className="w-full max-w-sm rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-semibold text-slate-900">{m.admin_setup_title()}</h1>
        <p className="mt-2 text-sm text-slate-600">{m.admin_setup_intro()}</p>
        <Form className="mt-6 space-y-4" onSubmit={() => form.handleSubmit()}>
          <form.AppField name="newPassword">
            {(f) => <f.NewPasswordField label={m.reset_new_password()} />}
          </form.AppField>
          {problem !== null && <InlineAlert tone="error">{problem}</InlineAlert>}
          <form.AppForm>
            <form.SubmitButton
              label={m.admin_setup_submit()}
              pendingLabel={m.please_wait()}
              className="w-full"
              disabled={!isSetupTokenShaped(token)}
            />
          </form.AppForm>
        </Form>
      </div>
    </main>
  );
}
