import { useAuthActions } from "@convex-dev/auth/react";
import { useMutation } from "convex/react";
import { useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { ACCOUNT_CODE, parseContact } from "@convex/rules/accountCodes";
import { TwoStepCodePage } from "@/features/auth/two-step-code-page";
import { paths } from "@/lib/paths";
import { getLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

/** Forgot password: an email or mobile number, then the code sent there and a new password. */
export default function ForgotPasswordPage() {
  const request = useMutation(api.passwordReset.request);
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  return (
    <TwoStepCodePage
      title={m.reset_title()}
      subtitle={m.reset_subtitle()}
      backLabel={m.reset_back_to_login()}
      failed={m.reset_failed()}
      address={{
        label: m.field_contact(),
        hint: m.reset_contact_hint(),
        input: { autoComplete: "username", inputMode: "email" },
        parse: (typed) => (parseContact(typed) === null ? null : typed.trim()),
        rule: () => m.field_contact_rule(),
      }}
      sendLabel={m.action_send_code()}
      send={(role, contact) => request({ role, contact, language: getLocale() })}
      sentNotice={(contact) =>
        m.reset_code_sent({ contact, minutes: ACCOUNT_CODE.lifetimeMs / 60_000 })
      }
      newPasswordLabel={m.reset_new_password()}
      submitLabel={m.reset_set_password()}
      submit={async (role, contact, { code, newPassword }) => {
        await signIn(role, { flow: "reset", contact, code, newPassword, language: getLocale() });
        toast.success(m.reset_done());
        navigate(role === "professional" ? paths.professionalDashboard() : paths.home());
      }}
    />
  );
}
