import { useConvexAuth, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import type { ReactNode } from "react";
import { Navigate, useLocation, useNavigate, useParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { lineLabel } from "@/features/bookings/bill/labels";
import { METHOD_LABEL } from "@/i18n/money";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import {
  formatBsDate,
  formatDateTime,
  formatGregorianDate,
  formatKathmanduTime,
} from "@/lib/format";
import { formatPaisa } from "@/lib/rupees";
import { paths } from "@/lib/paths";
import { BRAND_NE } from "@/i18n/devanagari-chrome";

type Receipt = NonNullable<FunctionReturnType<typeof api.receipts.get>>;

/**
 * /receipts/:bookingId — a paid booking's receipt, for its customer, its professional and admins
 * (the server answers anyone else with none). Printed, it is the receipt alone: the site's header
 * and this page's buttons are hidden in print.
 */
export default function ReceiptPage() {
  const { bookingId } = useParams();
  const { isLoading, isAuthenticated } = useConvexAuth();
  const location = useLocation();
  if (isLoading) return <LoadingState />;
  if (!isAuthenticated) return <Navigate to={paths.login(location.pathname)} replace />;
  return <ReceiptOf key={bookingId} bookingId={bookingId as Id<"bookings">} />;
}

function ReceiptOf({ bookingId }: { bookingId: Id<"bookings"> }) {
  const receipt = useQuery(api.receipts.get, { bookingId });
  if (receipt === undefined) return <LoadingState />;
  if (receipt === null)
    return (
      <main className="mx-auto w-full max-w-2xl p-4">
        <EmptyState title={m.receipt_not_found()}>
          <p>{m.receipt_not_found_text()}</p>
          <Link className="mt-2 inline-block text-brand-700 underline" to={paths.home()}>
            {m.receipt_home()}
          </Link>
        </EmptyState>
      </main>
    );
  return <ReceiptView receipt={receipt} />;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[minmax(7rem,40%)_1fr] gap-2 py-1">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 font-medium break-words text-slate-900">{children}</dd>
    </div>
  );
}

function ReceiptView({ receipt: r }: { receipt: Receipt }) {
  const navigate = useNavigate();
  // "Cash" as a heading's value; the bill's sentence says "by cash"
  const method = r.method === "cash" ? m.receipt_method_cash() : METHOD_LABEL[r.method]();
  const paidTo =
    r.paidTo === "professional"
      ? (r.professionalName ?? m.receipt_the_professional())
      : m.receipt_paid_to_platform({ method });
  return (
    <main className="mx-auto w-full max-w-2xl p-4 print:max-w-none print:p-0">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2 print:hidden">
        <button
          type="button"
          onClick={() => void navigate(-1)}
          className="flex h-11 min-w-11 items-center rounded-lg px-2 text-sm text-brand-700 hover:bg-slate-100"
        >
          ← {m.receipt_back()}
        </button>
        <Button size="sm" onClick={() => window.print()}>
          {m.receipt_print()}
        </Button>
      </div>
      <article
        aria-labelledby="receipt-title"
        className="rounded-xl border border-slate-200 bg-white p-4 text-sm sm:p-6 print:border-0 print:p-0"
      >
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 pb-3">
          <div>
            <p className="font-semibold text-brand-700">GharSewa · {BRAND_NE}</p>
            <h1 id="receipt-title" className="text-xl font-bold text-slate-900">
              {m.receipt_title()}
            </h1>
          </div>
          <p className="text-right">
            <span className="block text-slate-600">{m.receipt_number()}</span>
            <span className="font-mono text-base font-semibold" data-testid="receipt-number">
              {r.number}
            </span>
          </p>
        </div>
        <dl className="mt-3 divide-y divide-slate-100">
          <Row label={m.receipt_date_bs()}>{formatBsDate(r.issuedAt)}</Row>
          <Row label={m.receipt_date_ad()}>
            {formatGregorianDate(r.issuedAt)}, {formatKathmanduTime(r.issuedAt)}
          </Row>
          <Row label={m.label_customer()}>{r.customerName ?? "—"}</Row>
          <Row label={m.label_professional()}>{r.professionalName ?? "—"}</Row>
          <Row label={m.receipt_job()}>
            {formatDateTime(r.jobAt)}, {localCityName(r.city)}
          </Row>
          <Row label={m.label_paid_by()}>{method}</Row>
          <Row label={m.receipt_paid_to()}>{paidTo}</Row>
          {r.gatewayId && (
            <Row label={m.receipt_gateway_id({ method })}>
              <span className="font-mono">{r.gatewayId}</span>
            </Row>
          )}
          {r.reference && (
            <Row label={m.receipt_reference()}>
              <span className="font-mono">{r.reference}</span>
            </Row>
          )}
          {r.cashConfirmedAt !== null && (
            <Row label={m.receipt_cash_confirmed()}>{formatDateTime(r.cashConfirmedAt)}</Row>
          )}
        </dl>
        <table className="mt-4 w-full border-collapse">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th scope="col" className="py-1 font-medium">
                {m.receipt_item()}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {m.receipt_amount()}
              </th>
            </tr>
          </thead>
          <tbody>
            {r.lines.map((line, i) => (
              <tr key={i} className="border-b border-slate-100">
                <td className="py-1.5 pr-2">{lineLabel(line)}</td>
                <td className="py-1.5 text-right whitespace-nowrap">
                  {formatPaisa(line.amountPaisa)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="text-base font-semibold">
              <th scope="row" className="pt-2 text-left">
                {m.receipt_total()}
              </th>
              <td className="pt-2 text-right whitespace-nowrap" data-testid="receipt-total">
                {formatPaisa(r.amountPaisa)}
              </td>
            </tr>
          </tfoot>
        </table>
      </article>
    </main>
  );
}
