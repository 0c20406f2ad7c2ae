import { useState } from "react";
import { Button } from "@/components/ui/button";
import { m } from "@/i18n/paraglide/messages";

/** Recovery codes shown the one time the server returns them, with a way to copy them all. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section aria-labelledby="recovery-codes" className="space-y-3">
      <h2 id="recovery-codes" className="text-lg font-semibold text-slate-900">
        {m.tf_codes_title()}
      </h2>
      <p className="text-sm text-slate-600">{m.tf_codes_intro()}</p>
      <ol
        aria-label={m.tf_codes_list()}
        className="grid grid-cols-2 gap-2 rounded-xl bg-slate-50 p-3 font-mono text-sm text-slate-900 ring-1 ring-slate-200"
      >
        {codes.map((code) => (
          <li key={code} translate="no">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(codes.join("\n")).then(() => setCopied(true))
          }
        >
          {copied ? m.tf_codes_copied() : m.tf_codes_copy()}
        </Button>
        <Button onClick={onDone}>{m.tf_codes_saved()}</Button>
      </div>
    </section>
  );
}
