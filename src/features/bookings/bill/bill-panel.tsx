import { useMutation, useQuery } from "convex/react";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import {
  EDITABLE_STATUSES,
  hasFee,
  mayPay,
  pendingLines,
  type LineKind,
  type LineStatus,
} from "@convex/rules/bill";
import type { BookingStatus } from "@convex/rules/bookingLifecycle";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatPaisa } from "@/lib/rupees";
import { paths } from "@/lib/paths";
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";
import { AddLineForm } from "@/features/bookings/bill/add-line-form";
import { PayButtons } from "@/features/bookings/bill/pay-buttons";
import { lineLabel } from "@/features/bookings/bill/labels";
import { METHOD_LABEL } from "@/i18n/money";
import { RefundNote } from "@/features/bookings/bill/refund-note";
import { CashReceivedForm, CashStatus } from "@/features/bookings/cash/cash-panel";

/** Statuses whose card shows the bill: from the professional's arrival on. */
const BILL_STATUSES: readonly BookingStatus[] = ["in_progress", "completed", "reviewed"];

const KIND_LABEL: Record<LineKind, () => string> = {
  service: m.bill_kind_service,
  visit: m.bill_kind_visit,
  part: m.bill_kind_part,
  extra: m.bill_kind_extra,
  quote: m.bill_kind_quote,
  fee: m.bill_kind_fee,
};

/**
 * A booking's bill, live: its lines with their answers, the total of the approved ones, and what
 * comes next — the customer answers items the professional added on site (and pays once nothing
 * waits), the professional adds items while the job is in progress.
 */
export function BillPanel({
  bookingId,
  status,
  audience,
}: {
  bookingId: Id<"bookings">;
  status: BookingStatus;
  audience: "customer" | "professional";
}) {
  if (status === "cancelled")
    return (
      <>
        <RefundNote bookingId={bookingId} audience={audience} />
        <LiveBill bookingId={bookingId} status={status} audience={audience} />
      </>
    );
  return <LiveBill bookingId={bookingId} status={status} audience={audience} />;
}

function LiveBill({
  bookingId,
  status,
  audience,
}: {
  bookingId: Id<"bookings">;
  status: BookingStatus;
  audience: "customer" | "professional";
}) {
  const cancelled = status === "cancelled";
  const shown = BILL_STATUSES.includes(status) || cancelled;
  const bill = useQuery(api.bills.get, shown ? { bookingId } : "skip");
  if (!shown || bill === null) return null;
  if (bill === undefined)
    return cancelled ? null : <p className="mt-3 text-sm text-slate-500">{m.bill_loading()}</p>;
  const fee = hasFee(bill.lines);
  // a cancelled booking shows its bill only for a late-cancellation fee or cash still to answer
  const cashOpen = bill.payment?.cash === "awaiting" || bill.payment?.cash === "disputed";
  if (cancelled && !fee && !cashOpen) return null;
  const editable = EDITABLE_STATUSES.includes(status) && bill.payment === null;
  const pending = pendingLines(bill.lines);
  const hasQuote = bill.lines.some((l) => l.kind === "quote" && l.status === "approved");
  const payable =
    bill.payment === null &&
    mayPay(status, bill.lines) &&
    pending.length === 0 &&
    bill.totalPaisa > 0;
  const cash = bill.payment?.cash ?? null;
  // cash counts as paid once its customer confirmed it
  const paid = bill.payment && (cash === null || cash === "confirmed") ? bill.payment : null;
  return (
    <section
      aria-label={m.bill_title()}
      className="mt-3 rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm"
    >
      <div className="flex items-center justify-between gap-2">
        <h4 className="font-semibold text-slate-900">{m.bill_title()}</h4>
        {cash === "awaiting" ? (
          <Badge tone="warning">{m.bill_cash_awaiting()}</Badge>
        ) : cash === "disputed" ? (
          <Badge tone="danger">{m.bill_cash_disputed()}</Badge>
        ) : cash === "waived" ? (
          <Badge tone="neutral">{m.bill_cash_waived()}</Badge>
        ) : paid ? (
          <Badge tone="success">{m.bill_paid()}</Badge>
        ) : (
          <Badge tone="neutral">{m.bill_unpaid()}</Badge>
        )}
      </div>
      {bill.onInspection && !hasQuote && (
        <p className="mt-2 rounded-lg bg-amber-50 p-2 text-amber-900">
          {audience === "customer" ? m.bill_on_inspection() : m.bill_on_inspection_pro()}
        </p>
      )}
      {fee && (
        <p className="mt-2 rounded-lg bg-amber-50 p-2 text-amber-900">
          {audience === "customer" ? m.bill_fee_note() : m.bill_fee_note_pro()}
        </p>
      )}
      <ul className="mt-2 divide-y divide-slate-200">
        {bill.lines
          .filter((line) => !fee || line.kind === "fee")
          .map((line) => (
            <BillLineRow
              key={line._id}
              line={line}
              answerable={audience === "customer" && editable && line.status === "proposed"}
              audience={audience}
            />
          ))}
      </ul>
      <p className="mt-2 flex justify-between border-t border-slate-300 pt-2 text-base font-semibold">
        <span>{m.bill_total()}</span>
        <span data-testid="bill-total">{formatPaisa(bill.totalPaisa)}</span>
      </p>
      {paid && (
        <p className="mt-1 flex flex-wrap items-center justify-between gap-2 text-green-800">
          <span>
            {m.bill_paid_by({
              amount: formatPaisa(paid.amountPaisa),
              method: METHOD_LABEL[paid.method](),
            })}
          </span>
          <Link to={paths.receipt(bookingId)} className="font-medium text-brand-700 underline">
            {m.receipt_title()}
          </Link>
        </p>
      )}
      {bill.payment?.cash && (
        <CashStatus
          bookingId={bookingId}
          state={bill.payment.cash}
          amountPaisa={bill.payment.amountPaisa}
          recordedAt={bill.payment.at}
          audience={audience}
          refundBound={cancelled && !fee}
        />
      )}
      {editable && pending.length > 0 && (
        <p className="mt-2 text-slate-600">{m.bill_pending_note()}</p>
      )}
      {audience === "customer" && editable && pending.length === 0 && (
        <p className="mt-2 text-slate-600">{m.bill_final_note()}</p>
      )}
      {audience === "professional" && editable && (
        <AddLineForm bookingId={bookingId} quote={bill.onInspection && !hasQuote} />
      )}
      {payable && audience === "customer" && (
        <PayButtons bookingId={bookingId} totalPaisa={bill.totalPaisa} />
      )}
      {payable && audience === "professional" && (
        <CashReceivedForm bookingId={bookingId} totalPaisa={bill.totalPaisa} />
      )}
    </section>
  );
}

function BillLineRow({
  line,
  answerable,
  audience,
}: {
  line: {
    _id: Id<"billLines">;
    kind: LineKind;
    label: string;
    amountPaisa: number;
    status: LineStatus;
    reason: string | null;
  };
  answerable: boolean;
  audience: "customer" | "professional";
}) {
  const decide = useMutation(api.bills.decide);
  const { busy, run } = useBusyCall();
  const label = lineLabel(line);
  const amount = formatPaisa(line.amountPaisa);
  const answer = (approve: boolean) =>
    run(() => decide({ lineId: line._id, approve }), m.bill_decide_failed());
  const declined = line.status === "declined";
  return (
    <li className="py-2" aria-label={m.bill_decide_label({ item: label, amount })}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <span className={declined ? "text-slate-500 line-through" : "text-slate-900"}>
            {label}
          </span>{" "}
          <span className="text-xs text-slate-500">· {KIND_LABEL[line.kind]()}</span>
          {line.reason && (
            <p className="text-xs text-slate-600">{m.bill_reason({ reason: line.reason })}</p>
          )}
        </div>
        <span className={`shrink-0 font-medium ${declined ? "text-slate-500 line-through" : ""}`}>
          {amount}
        </span>
      </div>
      {line.status === "proposed" && (
        <Badge tone="warning" className="mt-1">
          {audience === "customer" ? m.bill_waiting_you() : m.bill_waiting_customer()}
        </Badge>
      )}
      {declined && (
        <Badge tone="neutral" className="mt-1">
          {m.bill_declined()}
        </Badge>
      )}
      {answerable && (
        <div className="mt-2 flex gap-2">
          <Button size="sm" disabled={busy} onClick={() => void answer(true)}>
            {line.kind === "quote" ? m.bill_accept_quote() : m.bill_approve()}
          </Button>
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => void answer(false)}>
            {m.action_decline()}
          </Button>
        </div>
      )}
    </li>
  );
}
