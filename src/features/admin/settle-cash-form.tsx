import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { DISPUTE_OUTCOMES, type DisputeOutcome } from "@convex/rules/ledger";
import { MODERATION_FIELDS } from "@convex/rules/moderation";
import { Button } from "@/components/ui/button";
import { TextareaField } from "@/components/ui/inputs";
import { LoadingState } from "@/components/ui/states";
import { lengthMessage } from "@/lib/length-message";
import { m } from "@/i18n/paraglide/messages";
import { useBusyCall } from "@/lib/use-busy-call";
import { formatPaisa } from "@/lib/rupees";

const REASON = MODERATION_FIELDS.resolutionNote;

const OUTCOME_LABELS: Record<DisputeOutcome, () => string> = {
  paid: m.dispute_outcome_paid,
  waived: m.dispute_outcome_waived,
};

/**
 * The admin's answer to a customer's cash dispute (on its report's page): the cash was paid, which
 * books it, or it is waived; with a reason both sides read. It resolves the report too.
 */
export function SettleCashForm({
  reportId,
  bookingId,
}: {
  reportId: Id<"reports">;
  bookingId: Id<"bookings">;
}) {
  const bill = useQuery(api.bills.get, { bookingId });
  const settle = useMutation(api.cashDisputes.settle);
  const [outcome, setOutcome] = useState<DisputeOutcome>();
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const { busy, run } = useBusyCall();
  if (bill === undefined) return <LoadingState label={m.admin_reports_loading()} />;
  const problem = lengthMessage(reason, REASON, (min) => m.dispute_reason_short({ min }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setTried(true);
    if (problem || !outcome) return;
    const done = await run(
      () => settle({ reportId, outcome, reason: reason.trim() }),
      m.dispute_settle_failed(),
    );
    if (done) toast.success(m.dispute_settled_toast());
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3">
      <h2 className="font-semibold text-slate-900">{m.dispute_settle_title()}</h2>
      {bill?.payment && (
        <p className="text-sm text-slate-700">
          {m.dispute_settle_intro({
            amount: formatPaisa(bill.payment.amountPaisa),
            total: formatPaisa(bill.totalPaisa),
          })}
        </p>
      )}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{m.dispute_outcome()}</legend>
        <div className="mt-1 grid gap-2">
          {DISPUTE_OUTCOMES.map((o) => (
            <label
              key={o}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="outcome"
                value={o}
                checked={outcome === o}
                onChange={() => setOutcome(o)}
                className="accent-brand-600"
              />
              {OUTCOME_LABELS[o]()}
            </label>
          ))}
        </div>
        {tried && !outcome && (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {m.dispute_outcome_missing()}
          </p>
        )}
      </fieldset>
      <TextareaField
        label={m.label_reason()}
        hint={m.dispute_reason_hint()}
        rows={3}
        maxLength={REASON.max}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={tried ? problem : undefined}
      />
      <Button type="submit" disabled={busy}>
        {m.dispute_settle()}
      </Button>
    </form>
  );
}
