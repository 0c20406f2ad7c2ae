import { useState } from "react";
import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CASH_AUTO_CONFIRM_MS, type CashState } from "@convex/rules/ledger";
import { amountProblem, paisaFromRupees } from "@convex/rules/money";
import { MODERATION_FIELDS } from "@convex/rules/moderation";
import { Button } from "@/components/ui/button";
import { TextField, TextareaField } from "@/components/ui/inputs";
import { toLatinDigits } from "@/lib/digits";
import { formatDateTime } from "@/lib/format";
import { formatPaisa } from "@/lib/rupees";
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";

/**
 * The professional's "cash received": the amount they were paid, which must be the bill's total
 * (the server refuses anything else; a different price goes through the bill's items first).
 */
export function CashReceivedForm({
  bookingId,
  totalPaisa,
}: {
  bookingId: Id<"bookings">;
  totalPaisa: number;
}) {
  const mark = useMutation(api.cash.markReceived);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string>();
  const { busy, run } = useBusyCall();
  const total = formatPaisa(totalPaisa);

  if (!open)
    return (
      <Button size="sm" className="mt-3" onClick={() => setOpen(true)}>
        {m.cash_received()}
      </Button>
    );

  async function submit() {
    const paisa = paisaFromRupees(toLatinDigits(amount));
    if (paisa === null || amountProblem(paisa) !== null) return setError(m.cash_amount_error());
    if (paisa !== totalPaisa) return setError(m.cash_amount_not_total({ total }));
    setError(undefined);
    if (await run(() => mark({ bookingId, amountPaisa: paisa }), m.cash_failed())) setOpen(false);
  }

  return (
    <form
      aria-label={m.cash_received_title()}
      className="mt-3 space-y-2 rounded-lg bg-white p-3 ring-1 ring-slate-200"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h5 className="font-medium text-slate-900">{m.cash_received_title()}</h5>
      <TextField
        label={m.cash_amount()}
        hint={m.cash_amount_hint({ total })}
        inputMode="decimal"
        value={amount}
        error={error}
        onChange={(e) => setAmount(e.target.value)}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={() => setOpen(false)}>
          {m.action_cancel()}
        </Button>
        <Button size="sm" type="submit" disabled={busy}>
          {busy ? m.state_sending() : m.cash_record()}
        </Button>
      </div>
    </form>
  );
}

/**
 * Where a cash payment stands, live, for either side: the customer confirms or disputes cash
 * awaiting their answer; the professional waits for it. On a booking cancelled since
 * (`refundBound`), the customer says whether they paid it: paid cash is refunded.
 */
export function CashStatus({
  bookingId,
  state,
  amountPaisa,
  recordedAt,
  audience,
  refundBound = false,
}: {
  bookingId: Id<"bookings">;
  state: CashState;
  amountPaisa: number;
  recordedAt: number;
  audience: "customer" | "professional";
  refundBound?: boolean;
}) {
  const amount = formatPaisa(amountPaisa);
  if (state === "confirmed") return null;
  if (state === "waived")
    return (
      <p role="status" className="mt-2 rounded-lg bg-slate-100 p-2 text-slate-800">
        {m.cash_waived({ amount })}
      </p>
    );
  if (state === "disputed")
    return (
      <p role="status" className="mt-2 rounded-lg bg-red-50 p-2 text-red-900">
        {audience === "customer" ? m.cash_disputed_customer() : m.cash_disputed_pro({ amount })}
      </p>
    );
  const autoAt = formatDateTime(recordedAt + CASH_AUTO_CONFIRM_MS);
  if (audience === "professional")
    return (
      <p role="status" className="mt-2 rounded-lg bg-amber-50 p-2 text-amber-900">
        {refundBound
          ? m.cash_cancelled_pro({ amount, at: autoAt })
          : m.cash_waiting_pro({ amount, at: autoAt })}
      </p>
    );
  return (
    <CashAnswer bookingId={bookingId} amount={amount} autoAt={autoAt} refundBound={refundBound} />
  );
}

function CashAnswer({
  bookingId,
  amount,
  autoAt,
  refundBound,
}: {
  bookingId: Id<"bookings">;
  amount: string;
  autoAt: string;
  refundBound: boolean;
}) {
  const confirm = useMutation(api.cash.confirm);
  const notPaid = useMutation(api.cash.notPaid);
  const dispute = useMutation(api.cash.dispute);
  const [disputing, setDisputing] = useState(false);
  const [text, setText] = useState("");
  const [error, setError] = useState<string>();
  const { busy, run: runCall } = useBusyCall();
  const { min, max } = MODERATION_FIELDS.reportText;
  const run = (call: () => Promise<unknown>) => runCall(call, m.cash_failed());

  return (
    <div
      role="group"
      aria-label={m.cash_answer_title()}
      className="mt-3 rounded-lg bg-amber-50 p-3 ring-1 ring-amber-200"
    >
      <h5 className="font-medium text-slate-900">{m.cash_answer_title()}</h5>
      <p className="mt-1 text-slate-800">
        {refundBound
          ? m.cash_cancelled_text({ amount, at: autoAt })
          : m.cash_answer_text({ amount, at: autoAt })}
      </p>
      {!disputing ? (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" disabled={busy} onClick={() => void run(() => confirm({ bookingId }))}>
            {refundBound ? m.cash_cancelled_paid() : m.cash_confirm()}
          </Button>
          {refundBound && (
            <Button
              size="sm"
              variant="secondary"
              disabled={busy}
              onClick={() => void run(() => notPaid({ bookingId }))}
            >
              {m.cash_cancelled_not_paid()}
            </Button>
          )}
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => setDisputing(true)}>
            {m.cash_dispute()}
          </Button>
        </div>
      ) : (
        <form
          className="mt-2 space-y-2"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const length = text.trim().length;
            if (length < min || length > max) return setError(m.cash_dispute_error({ min, max }));
            setError(undefined);
            void run(() => dispute({ bookingId, text: text.trim() }));
          }}
        >
          <TextareaField
            label={m.cash_dispute_what()}
            rows={3}
            value={text}
            maxLength={max}
            error={error}
            onChange={(e) => setText(e.target.value)}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button size="sm" variant="secondary" onClick={() => setDisputing(false)}>
              {m.action_cancel()}
            </Button>
            <Button size="sm" type="submit" disabled={busy}>
              {m.cash_dispute_send()}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
