import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { BILL_LIMITS, SITE_LINE_KINDS, type SiteLineKind } from "@convex/rules/bill";
import { amountProblem, paisaFromRupees } from "@convex/rules/money";
import { Button } from "@/components/ui/button";
import { SelectField, TextField, TextareaField } from "@/components/ui/inputs";
import { toLatinDigits } from "@/lib/digits";
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";

const KIND_OPTION: Record<SiteLineKind, () => string> = {
  part: m.bill_kind_part,
  extra: m.bill_kind_extra,
  quote: m.bill_kind_quote,
};

type Errors = Partial<Record<"label" | "amount" | "reason", string>>;

/** What the server checks of an item, said before it is sent. */
function check(label: string, amountText: string, reason: string) {
  const { label: L, reason: R } = BILL_LIMITS;
  const errors: Errors = {};
  if (label.trim().length < L.min || label.trim().length > L.max)
    errors.label = m.bill_add_label_error({ min: L.min, max: L.max });
  const paisa = paisaFromRupees(toLatinDigits(amountText));
  if (paisa === null || amountProblem(paisa) !== null) errors.amount = m.bill_add_amount_error();
  if (reason.trim().length < R.min || reason.trim().length > R.max)
    errors.reason = m.bill_add_reason_error({ min: R.min, max: R.max });
  return { errors, paisa };
}

/**
 * The professional adds a part, extra work or (for a service priced on inspection) a quote, with a
 * reason the customer reads; it is sent to the customer's screen to approve or decline.
 */
export function AddLineForm({ bookingId, quote }: { bookingId: Id<"bookings">; quote: boolean }) {
  const propose = useMutation(api.bills.propose);
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<SiteLineKind>(quote ? "quote" : "part");
  const [label, setLabel] = useState("");
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const { busy, run } = useBusyCall();

  if (!open)
    return (
      <Button
        size="sm"
        variant="secondary"
        className="mt-3"
        onClick={() => {
          setKind(quote ? "quote" : "part");
          setOpen(true);
        }}
      >
        {quote ? m.bill_add_quote() : m.bill_add()}
      </Button>
    );

  async function submit() {
    const { errors, paisa } = check(label, amount, reason);
    setErrors(errors);
    if (Object.keys(errors).length > 0 || paisa === null) return;
    const sent = await run(
      () =>
        propose({
          bookingId,
          kind,
          label: label.trim(),
          amountPaisa: paisa,
          reason: reason.trim(),
        }),
      m.bill_add_failed(),
    );
    if (!sent) return;
    toast.success(m.bill_add_sent());
    setOpen(false);
    setLabel("");
    setAmount("");
    setReason("");
  }

  return (
    <form
      aria-label={m.bill_add_title()}
      className="mt-3 space-y-2 rounded-lg bg-white p-3 ring-1 ring-slate-200"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h5 className="font-medium text-slate-900">{m.bill_add_title()}</h5>
      <SelectField
        label={m.bill_add_kind()}
        value={kind}
        onChange={(e) => setKind(e.target.value as SiteLineKind)}
      >
        {SITE_LINE_KINDS.map((k) => (
          <option key={k} value={k}>
            {KIND_OPTION[k]()}
          </option>
        ))}
      </SelectField>
      <TextField
        label={m.bill_add_label()}
        hint={m.bill_add_label_hint()}
        value={label}
        maxLength={BILL_LIMITS.label.max}
        error={errors.label}
        onChange={(e) => setLabel(e.target.value)}
      />
      <TextField
        label={m.bill_add_amount()}
        inputMode="decimal"
        value={amount}
        error={errors.amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <TextareaField
        label={m.bill_add_reason()}
        rows={2}
        value={reason}
        maxLength={BILL_LIMITS.reason.max}
        error={errors.reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={() => setOpen(false)}>
          {m.action_cancel()}
        </Button>
        <Button size="sm" type="submit" disabled={busy}>
          {busy ? m.state_sending() : m.bill_add_send()}
        </Button>
      </div>
    </form>
  );
}
