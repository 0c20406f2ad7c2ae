import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";
import { AuthenticatorCodeForm } from "./authenticator-code-form";
import { RecoveryCodes } from "./recovery-codes";

/** /admin/account: two-factor is on, how many recovery codes are left, and new ones for a code. */
export function TwoFactorPanel() {
  const status = useQuery(api.twoFactor.status);
  const replace = useMutation(api.twoFactor.replaceRecovery);
  const [codes, setCodes] = useState<string[] | null>(null);
  if (status === undefined || !status.enabled) return null;
  return (
    <section
      aria-labelledby="two-factor"
      className="mt-6 space-y-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="two-factor" className="text-lg font-semibold">
        {m.tf_title()}
      </h2>
      <p className="text-sm text-slate-700">{m.tf_on()}</p>
      <p className="text-sm text-slate-700">
        {m.tf_codes_left({ count: formatNumber(status.recoveryCodesLeft) })}
      </p>
      {codes !== null ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : (
        <>
          <h3 className="font-medium text-slate-900">{m.tf_replace()}</h3>
          <p className="text-sm text-slate-600">{m.tf_replace_intro()}</p>
          <AuthenticatorCodeForm
            submitLabel={m.tf_replace()}
            send={(code) => replace({ code })}
            onAccepted={({ recoveryCodes }) => setCodes(recoveryCodes)}
          />
        </>
      )}
    </section>
  );
}
