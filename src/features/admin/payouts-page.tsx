import { useState } from "react";
import { useConvex, useMutation, usePaginatedQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toCsv } from "@convex/rules/csv";
import { DAY_MS } from "@convex/rules/earnings";
import { PAYOUT_METHODS, type PayoutMethod } from "@convex/rules/ledger";
import { amountProblem, paisaFromRupees } from "@convex/rules/money";
import { PAYOUT_LIMITS, referenceProblem } from "@convex/rules/payouts";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/inputs";
import { LoadMore } from "@/components/ui/load-more";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { DisputedCash } from "@/features/admin/disputed-cash";
import { RefundsDue } from "@/features/admin/refunds-due";
import { SectionCard } from "@/features/admin/section-card";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { toLatinDigits } from "@/lib/digits";
import { formatDateTime, fromKathmanduInputValue, toKathmanduInputValue } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { formatPaisa } from "@/lib/rupees";
import { useBusyCall } from "@/lib/use-busy-call";

const PAGE = 20;

const METHOD_LABELS: Record<PayoutMethod, () => string> = {
  bank: m.payout_method_bank,
  esewa: m.method_esewa,
  khalti: m.method_khalti,
  cash: m.method_cash,
};

/**
 * /admin/payouts: balances per professional, recording payouts and cash commission received, their
 * histories, the ledger as CSV.
 */
export default function PayoutsPage() {
  return (
    <AdminPageLayout
      title={m.payouts_title()}
      loadError={m.payouts_load_failed()}
      controls={<p className="mt-2 text-sm text-slate-600">{m.payouts_intro()}</p>}
    >
      <div className="mt-4 grid gap-4 xl:grid-cols-2 xl:items-start">
        <Balances />
        <div className="space-y-4">
          <DisputedCash />
          <RefundsDue />
          <TransferHistory kind="payout" />
          <TransferHistory kind="settlement" />
          <LedgerExport />
        </div>
      </div>
    </AdminPageLayout>
  );
}

function Balances() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.payouts.balances,
    {},
    { initialNumItems: PAGE },
  );
  const [open, setOpen] = useState<Id<"professionals"> | null>(null);
  return (
    <SectionCard title={m.payouts_balances_title()}>
      <p className="mb-2 text-sm text-slate-600">{m.payouts_netting()}</p>
      {status === "LoadingFirstPage" ? (
        <LoadingState label={m.payouts_loading()} />
      ) : results.length === 0 ? (
        <EmptyState title={m.payouts_none()} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {results.map((row) => (
            <li key={row.professionalId} aria-label={row.name} className="py-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{row.name}</p>
                  <p className="text-sm text-slate-600">{localCityName(row.city)}</p>
                </div>
                <div className="flex items-center gap-3">
                  <BalanceText duePaisa={row.duePaisa} />
                  {row.duePaisa !== 0 && open !== row.professionalId && (
                    <Button size="sm" onClick={() => setOpen(row.professionalId)}>
                      {row.duePaisa > 0 ? m.payouts_record() : m.payouts_settle()}
                    </Button>
                  )}
                </div>
              </div>
              {open === row.professionalId && row.duePaisa > 0 && (
                <PayoutForm
                  professionalId={row.professionalId}
                  name={row.name}
                  duePaisa={row.duePaisa}
                  onDone={() => setOpen(null)}
                />
              )}
              {open === row.professionalId && row.duePaisa < 0 && (
                <SettlementForm
                  professionalId={row.professionalId}
                  name={row.name}
                  owedPaisa={-row.duePaisa}
                  onDone={() => setOpen(null)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <LoadMore
        status={status}
        onMore={() => loadMore(PAGE)}
        label={m.payouts_more()}
        loadingLabel={m.state_loading_more()}
      />
    </SectionCard>
  );
}

function BalanceText({ duePaisa }: { duePaisa: number }) {
  if (duePaisa > 0)
    return (
      <span className="font-semibold text-emerald-800">
        {m.payouts_due({ amount: formatPaisa(duePaisa) })}
      </span>
    );
  if (duePaisa < 0)
    return (
      <span className="font-semibold text-amber-800">
        {m.payouts_owes({ amount: formatPaisa(-duePaisa) })}
      </span>
    );
  return <span className="text-slate-600">{m.payouts_settled()}</span>;
}

type Errors = Partial<Record<"amount" | "reference", string>>;

/** The payout of a transfer already made: method, amount (at most what is due) and its reference. */
function PayoutForm({
  professionalId,
  name,
  duePaisa,
  onDone,
}: {
  professionalId: Id<"professionals">;
  name: string;
  duePaisa: number;
  onDone: () => void;
}) {
  const record = useMutation(api.payouts.record);
  // the balance when the form opened: the server refuses the payout if it changed since
  const [seenDuePaisa] = useState(duePaisa);
  const max = formatPaisa(seenDuePaisa);
  return (
    <TransferForm
      title={m.payouts_record_for({ name })}
      methodLabel={m.label_paid_by()}
      initialMethod="bank"
      maxPaisa={seenDuePaisa}
      amountHint={m.payouts_amount_hint({ amount: max })}
      amountError={m.payouts_amount_error({ amount: max })}
      failed={m.payouts_failed()}
      className="bg-slate-50 ring-slate-200"
      onCancel={onDone}
      onSave={async (transfer) => {
        await record({ professionalId, ...transfer, seenDuePaisa });
        toast.success(m.payouts_recorded({ amount: formatPaisa(transfer.amountPaisa), name }));
        onDone();
      }}
    />
  );
}

/**
 * Cash commission a professional handed over: method, amount (at most what they owe) and its
 * reference; the same reference again records nothing.
 */
function SettlementForm({
  professionalId,
  name,
  owedPaisa,
  onDone,
}: {
  professionalId: Id<"professionals">;
  name: string;
  owedPaisa: number;
  onDone: () => void;
}) {
  const record = useMutation(api.settlements.record);
  // what they owed when the form opened: the bound the admin was shown
  const [seenOwedPaisa] = useState(owedPaisa);
  const max = formatPaisa(seenOwedPaisa);
  return (
    <TransferForm
      title={m.payouts_settle_for({ name })}
      methodLabel={m.payouts_settle_method()}
      initialMethod="cash"
      maxPaisa={seenOwedPaisa}
      amountHint={m.payouts_settle_amount_hint({ amount: max })}
      amountError={m.payouts_amount_error({ amount: max })}
      failed={m.payouts_settle_failed()}
      className="bg-amber-50 ring-amber-200"
      onCancel={onDone}
      onSave={async (transfer) => {
        const { duplicate } = await record({ professionalId, ...transfer });
        if (duplicate) toast.info(m.payouts_settle_duplicate({ name }));
        else
          toast.success(
            m.payouts_settle_recorded({ amount: formatPaisa(transfer.amountPaisa), name }),
          );
        onDone();
      }}
    />
  );
}

/** Money moved outside the app, as an admin records it: method, amount up to a bound, reference. */
function TransferForm({
  title,
  methodLabel,
  initialMethod,
  maxPaisa,
  amountHint,
  amountError,
  failed,
  className,
  onCancel,
  onSave,
}: {
  title: string;
  methodLabel: string;
  initialMethod: PayoutMethod;
  maxPaisa: number;
  amountHint: string;
  amountError: string;
  failed: string;
  className: string;
  onCancel: () => void;
  onSave: (transfer: {
    method: PayoutMethod;
    reference: string;
    amountPaisa: number;
  }) => Promise<void>;
}) {
  const [method, setMethod] = useState<PayoutMethod>(initialMethod);
  const [amount, setAmount] = useState(() => String(maxPaisa / 100));
  const [reference, setReference] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const { busy, run } = useBusyCall();

  async function submit() {
    const paisa = paisaFromRupees(toLatinDigits(amount));
    const next: Errors = {};
    if (paisa === null || amountProblem(paisa) !== null || paisa > maxPaisa)
      next.amount = amountError;
    if (referenceProblem(reference) !== null)
      next.reference = m.payouts_reference_error({ bytes: PAYOUT_LIMITS.referenceBytes });
    setErrors(next);
    if (Object.keys(next).length > 0 || paisa === null) return;
    await run(() => onSave({ method, reference: reference.trim(), amountPaisa: paisa }), failed);
  }

  return (
    <form
      aria-label={title}
      noValidate
      className={`mt-3 grid gap-3 rounded-lg p-3 ring-1 sm:grid-cols-3 ${className}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 className="font-medium text-slate-900 sm:col-span-3">{title}</h3>
      <SelectField
        label={methodLabel}
        value={method}
        onChange={(e) => setMethod(e.target.value as PayoutMethod)}
      >
        {PAYOUT_METHODS.map((p) => (
          <option key={p} value={p}>
            {METHOD_LABELS[p]()}
          </option>
        ))}
      </SelectField>
      <TextField
        label={m.payouts_amount()}
        hint={amountHint}
        inputMode="decimal"
        value={amount}
        error={errors.amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <TextField
        label={m.payouts_reference()}
        hint={m.payouts_reference_hint()}
        value={reference}
        error={errors.reference}
        onChange={(e) => setReference(e.target.value)}
      />
      <div className="flex flex-wrap justify-end gap-2 sm:col-span-3">
        <Button size="sm" variant="secondary" onClick={onCancel}>
          {m.action_cancel()}
        </Button>
        <Button size="sm" type="submit" disabled={busy}>
          {busy ? m.payouts_saving() : m.payouts_save()}
        </Button>
      </div>
    </form>
  );
}

/** The words and query of each transfer history: payouts made, cash commission received. */
const HISTORIES = {
  payout: {
    query: api.payouts.history,
    title: m.payouts_history_title,
    none: m.payouts_history_none,
    line: m.payouts_history_line,
    more: m.payouts_history_more,
  },
  settlement: {
    query: api.settlements.history,
    title: m.payouts_settlements_title,
    none: m.payouts_settlements_none,
    line: m.payouts_settlements_line,
    more: m.payouts_settlements_more,
  },
};

/** Transfers of one kind, newest first, with who recorded them and the reference. */
function TransferHistory({ kind }: { kind: keyof typeof HISTORIES }) {
  const words = HISTORIES[kind];
  const { results, status, loadMore } = usePaginatedQuery(
    words.query,
    {},
    { initialNumItems: PAGE },
  );
  return (
    <SectionCard title={words.title()}>
      {status === "LoadingFirstPage" ? (
        <LoadingState label={m.payouts_loading()} />
      ) : results.length === 0 ? (
        <p className="text-sm text-slate-600">{words.none()}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {results.map((t) => (
            <li key={t._id} className="py-2 text-sm">
              <p className="font-medium text-slate-900">
                {words.line({
                  amount: formatPaisa(t.amountPaisa),
                  name: t.professional,
                  method: METHOD_LABELS[t.method](),
                })}
              </p>
              <p className="break-words text-slate-600">
                <time dateTime={new Date(t.at).toISOString()}>{formatDateTime(t.at)}</time>
                {" · "}
                {m.payouts_history_by({ admin: t.admin, reference: t.reference })}
              </p>
            </li>
          ))}
        </ul>
      )}
      <LoadMore
        status={status}
        onMore={() => loadMore(PAGE)}
        label={words.more()}
        loadingLabel={m.state_loading_more()}
      />
    </SectionCard>
  );
}

const CSV_HEADER = [
  "date_utc",
  "transaction",
  "kind",
  "account",
  "amount_paisa",
  "method",
  "reference",
  "booking",
  "professional",
] as const;

/** The Kathmandu day of a date input ("2026-11-27") as its first instant, NaN when empty. */
const dayStart = (date: string) => fromKathmanduInputValue(`${date}T00:00`);

/** Downloads the ledger's entries of the chosen Kathmandu days as CSV (spreadsheet-safe cells). */
function LedgerExport() {
  const convex = useConvex();
  // the last 30 Kathmandu days, fixed when the page opens
  const [today] = useState(() => toKathmanduInputValue(Date.now()).slice(0, 10));
  const [from, setFrom] = useState(() =>
    toKathmanduInputValue(Date.now() - 29 * DAY_MS).slice(0, 10),
  );
  const [to, setTo] = useState(today);
  const [rangeError, setRangeError] = useState<string>();
  const { busy, run } = useBusyCall();

  async function download() {
    const start = dayStart(from);
    const end = dayStart(to) + DAY_MS;
    if (!(end > start) || end - start > PAYOUT_LIMITS.exportDays * DAY_MS) {
      setRangeError(m.payouts_export_range_error({ days: formatNumber(PAYOUT_LIMITS.exportDays) }));
      return;
    }
    setRangeError(undefined);
    await run(async () => {
      const { rows, truncated } = await convex.query(api.payouts.ledgerExport, {
        from: start,
        to: end,
      });
      const csv = toCsv(
        CSV_HEADER,
        rows.map((r) => [
          new Date(r.at).toISOString(),
          r.txId,
          r.kind,
          r.account,
          r.amountPaisa,
          r.method,
          r.reference,
          r.bookingId,
          r.professionalId,
        ]),
      );
      const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `gharsewa-ledger-${from}-to-${to}.csv`;
      link.click();
      URL.revokeObjectURL(url);
      const count = formatNumber(PAYOUT_LIMITS.exportRows);
      if (truncated) toast.warning(m.payouts_export_truncated({ rows: count }));
      else toast.success(m.payouts_export_done({ rows: formatNumber(rows.length) }));
    }, m.payouts_export_failed());
  }

  return (
    <SectionCard title={m.payouts_export_title()}>
      <p className="mb-3 text-sm text-slate-600">
        {m.payouts_export_hint({ rows: formatNumber(PAYOUT_LIMITS.exportRows) })}
      </p>
      <form
        noValidate
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          void download();
        }}
      >
        <TextField
          type="date"
          label={m.payouts_export_from()}
          value={from}
          max={today}
          error={rangeError}
          onChange={(e) => setFrom(e.target.value)}
        />
        <TextField
          type="date"
          label={m.payouts_export_to()}
          value={to}
          max={today}
          onChange={(e) => setTo(e.target.value)}
        />
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" disabled={busy}>
            {busy ? m.state_preparing() : m.payouts_export_download()}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}
