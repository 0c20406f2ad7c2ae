import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { Link } from "@/components/link";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { PAYOUT_LIMITS, referenceProblem } from "@convex/rules/payouts";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { SectionCard } from "@/features/admin/section-card";
import { METHOD_LABEL } from "@/i18n/money";
import { m } from "@/i18n/paraglide/messages";
import { formatDateTime } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { formatPaisa } from "@/lib/rupees";
import { paths } from "@/lib/paths";
import { useBusyCall } from "@/lib/use-busy-call";

/**
 * Payments of cancelled bookings owed back to their customers, live. The admin refunds each in the
 * gateway's merchant portal (or in cash) and records its reference here.
 */
export function RefundsDue() {
  const rows = useQuery(api.refunds.due, {});
  const [open, setOpen] = useState<Id<"refunds"> | null>(null);
  return (
    <SectionCard title={m.refunds_title()}>
      {rows === undefined ? (
        <LoadingState label={m.payouts_loading()} />
      ) : rows.length === 0 ? (
        <EmptyState title={m.refunds_none()} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {rows.map((row) => (
            <li key={row.refundId} aria-label={row.customerName} className="py-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {m.refunds_row({
                      customer: row.customerName,
                      amount: formatPaisa(row.amountPaisa),
                      method: METHOD_LABEL[row.method](),
                    })}
                  </p>
                  <p className="text-slate-600">
                    {m.refunds_since({ when: formatDateTime(row.dueSince) })} ·{" "}
                    <Link
                      to={paths.adminBooking(row.bookingId)}
                      className="text-brand-700 underline"
                    >
                      {m.refunds_booking()}
                    </Link>
                  </p>
                </div>
                {open !== row.refundId && (
                  <Button size="sm" onClick={() => setOpen(row.refundId)}>
                    {m.refunds_record()}
                  </Button>
                )}
              </div>
              {open === row.refundId && (
                <RefundForm refundId={row.refundId} onDone={() => setOpen(null)} />
              )}
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function RefundForm({ refundId, onDone }: { refundId: Id<"refunds">; onDone: () => void }) {
  const mark = useMutation(api.refunds.markRefunded);
  const [reference, setReference] = useState("");
  const [error, setError] = useState<string>();
  const { busy, run } = useBusyCall();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (referenceProblem(reference) !== null)
      return setError(
        m.payouts_reference_error({ bytes: formatNumber(PAYOUT_LIMITS.referenceBytes) }),
      );
    setError(undefined);
    if (!(await run(() => mark({ refundId, reference: reference.trim() }), m.refunds_failed())))
      return;
    toast.success(m.refunds_marked_toast());
    onDone();
  }

  return (
    <form
      aria-label={m.refunds_form()}
      noValidate
      onSubmit={(e) => void submit(e)}
      className="mt-2 space-y-2 rounded-lg bg-slate-50 p-3"
    >
      <TextField
        label={m.payouts_reference()}
        hint={m.refunds_reference_hint()}
        value={reference}
        error={error}
        onChange={(e) => setReference(e.target.value)}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={onDone}>
          {m.action_cancel()}
        </Button>
        <Button size="sm" type="submit" disabled={busy}>
          {m.refunds_record()}
        </Button>
      </div>
    </form>
  );
}
