import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import { QrCode } from "@/components/qr-code";
import { Button } from "@/components/ui/button";
import { InlineAlert } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { m } from "@/i18n/paraglide/messages";
import { AuthenticatorCodeForm } from "./authenticator-code-form";
import { RecoveryCodes } from "./recovery-codes";

type Step =
  | { kind: "intro" }
  | { kind: "scan"; uri: string; key: string }
  | { kind: "codes"; codes: string[] };

/** The key in groups of four, as authenticator apps show keys. */
const grouped = (key: string) => key.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * Setting up the authenticator: a new secret as a QR code (drawn in the browser) and as a key, the
 * first code to confirm it, then the recovery codes once. `onStart` and `onDone` frame the flow for a
 * caller that must keep it on screen after the server already says two-factor is on.
 */
export function TwoFactorSetup({ onStart, onDone }: { onStart: () => void; onDone: () => void }) {
  const begin = useMutation(api.twoFactor.begin);
  const confirm = useMutation(api.twoFactor.confirm);
  const [step, setStep] = useState<Step>({ kind: "intro" });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    setProblem(null);
    onStart();
    try {
      setStep({ kind: "scan", ...(await begin()) });
    } catch (e) {
      setProblem(errorMessage(e, m.tf_failed()));
    } finally {
      setBusy(false);
    }
  }

  if (step.kind === "codes")
    return (
      <div className="space-y-3">
        <InlineAlert tone="success">{m.tf_on()}</InlineAlert>
        <p className="text-sm text-slate-600">{m.tf_other_devices()}</p>
        <RecoveryCodes codes={step.codes} onDone={onDone} />
      </div>
    );
  if (step.kind === "scan")
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">{m.tf_scan()}</p>
        <div className="w-fit rounded-xl p-2 ring-1 ring-slate-200">
          <QrCode text={step.uri} label={m.tf_qr_label()} />
        </div>
        <div>
          <p className="text-sm font-medium text-slate-700">{m.tf_key()}</p>
          <p
            data-testid="two-factor-key"
            translate="no"
            className="mt-1 font-mono text-sm break-all text-slate-900 select-all"
          >
            {grouped(step.key)}
          </p>
        </div>
        <AuthenticatorCodeForm
          submitLabel={m.tf_confirm()}
          send={(code) => confirm({ code })}
          onAccepted={({ recoveryCodes }) => setStep({ kind: "codes", codes: recoveryCodes })}
        />
      </div>
    );
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">{m.tf_setup_intro()}</p>
      {problem !== null && <InlineAlert tone="error">{problem}</InlineAlert>}
      <Button onClick={() => void start()} disabled={busy}>
        {m.tf_setup_start()}
      </Button>
    </div>
  );
}
