import { useAuthActions } from "@convex-dev/auth/react";
import { useMutation } from "convex/react";
import { useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { ACCOUNT_CODE, mobileDigits } from "@convex/rules/accountCodes";
import { TwoStepCodePage } from "@/features/auth/two-step-code-page";
import { formatDigits } from "@/lib/numbers";
import { paths } from "@/lib/paths";
import { getLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";

/** Sign in without a password: a verified mobile number, then the 6-digit code sent there by SMS. */
export default function CodeSigninPage() {
  const request = useMutation(api.signInCodes.request);
  const { signIn } = useAuthActions();
  const navigate = useNavigate();
  return (
    <TwoStepCodePage
      title={m.code_signin_title()}
      subtitle={m.code_signin_subtitle()}
      backLabel={m.code_signin_use_password()}
      failed={m.code_signin_failed()}
      address={{
        label: m.code_signin_phone(),
        hint: m.code_signin_phone_hint(),
        input: { type: "tel", autoComplete: "tel", placeholder: formatDigits("98XXXXXXXX") },
        parse: mobileDigits,
        rule: () => m.code_signin_phone_rule(),
      }}
      sendLabel={m.action_send_code()}
      send={(role, phone) => request({ role, phone, language: getLocale() })}
      sentNotice={(phone) =>
        m.code_signin_sent({
          phone: formatDigits(phone),
          minutes: formatDigits(String(ACCOUNT_CODE.lifetimeMs / 60_000)),
        })
      }
      submitLabel={m.code_signin_button()}
      submit={async (role, phone, { code }) => {
        await signIn(role, { flow: "code", phone, code });
        toast.success(m.login_success());
        navigate(paths.roleHome(role));
      }}
    />
  );
}
