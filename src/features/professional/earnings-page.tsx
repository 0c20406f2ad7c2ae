import { usePaginatedQuery, useQuery } from "convex/react";
import { useState, type ReactNode } from "react";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import { chartStart, DAY_MS, EARNINGS_PAGE_SIZE } from "@convex/rules/earnings";
import type { PaymentMethod, PayoutMethod } from "@convex/rules/ledger";
import { BarChart } from "@/components/bar-chart";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { LoadMore } from "@/components/ui/load-more";
import { localServiceName } from "@/i18n/services";
import { m } from "@/i18n/paraglide/messages";
import { errorMessage } from "@/lib/errors";
import { formatDateTime, formatDay } from "@/lib/format";
import { formatDigits } from "@/lib/numbers";
import { formatPaisa } from "@/lib/rupees";
import { paths } from "@/lib/paths";

const METHOD_LABELS: Record<PaymentMethod | PayoutMethod, () => string> = {
  cash: m.method_cash,
  esewa: m.method_esewa,
  khalti: m.method_khalti,
  bank: m.payout_method_bank,
};

/**
 * /professional/earnings: the signed-in professional's jobs, balance, payouts, cash commission
 * handed over and last 30 days, live.
 */
export default function EarningsPage() {
  return (
    <main className="mx-auto w-full max-w-4xl px-3 py-4 sm:px-4 sm:py-6">
      <Link
        to={paths.professionalDashboard()}
        className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
      >
        {m.earnings_back()}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold text-slate-900">{m.earnings_title()}</h1>
      <Intro />
      <ErrorBoundary
        fallback={(error, retry) => (
          <ErrorState title={m.earnings_failed()} onRetry={retry}>
            <p>{errorMessage(error, m.earnings_failed())}</p>
          </ErrorState>
        )}
      >
        <Summary />
        <Jobs />
      </ErrorBoundary>
    </main>
  );
}

function Intro() {
  const settings = useQuery(api.settings.get);
  if (settings === undefined) return null;
  return (
    <p className="mt-1 text-sm text-slate-600">
      {m.earnings_intro({ percent: formatDigits(`${settings.commissionPercent}%`) })}
    </p>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="mt-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <h2 className="mb-3 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Figure({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900" aria-label={label}>
        {formatPaisa(value)}
      </dd>
      {hint && <dd className="mt-1 text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}

function Summary() {
  // the chart's first day, fixed while the page is open (queries do not read the clock)
  const [since] = useState(() => chartStart(Date.now()));
  const summary = useQuery(api.earnings.summary, { since });
  if (summary === undefined) return <LoadingState label={m.earnings_loading()} />;
  const max = Math.max(0, ...summary.daily);
  const dayOf = (i: number) => formatDay(since + i * DAY_MS);
  return (
    <>
      <dl className="mt-4 grid gap-3 sm:grid-cols-3">
        <Figure
          label={m.earnings_due_to_you()}
          value={summary.dueToThemPaisa}
          hint={m.earnings_due_to_you_hint()}
        />
        <Figure
          label={m.earnings_owed()}
          value={summary.owedByThemPaisa}
          hint={m.earnings_owed_hint()}
        />
        <Figure label={m.earnings_paid_out()} value={summary.paidOutPaisa} />
      </dl>
      <Section title={m.earnings_chart_title()}>
        {max === 0 && <p className="mb-2 text-sm text-slate-600">{m.earnings_chart_empty()}</p>}
        <BarChart
          values={summary.daily}
          label={m.earnings_chart_label({
            from: dayOf(0),
            to: dayOf(summary.daily.length - 1),
            max: formatPaisa(max),
          })}
          barLabel={(i) =>
            m.earnings_chart_bar({ day: dayOf(i), amount: formatPaisa(summary.daily[i]) })
          }
          axis={[dayOf(0), dayOf(summary.daily.length - 1)]}
        />
      </Section>
      <Section title={m.payouts_title()}>
        <Transfers rows={summary.payouts} none={m.earnings_payouts_none()} />
      </Section>
      {(summary.settlements.length > 0 || summary.owedByThemPaisa > 0) && (
        <Section title={m.earnings_settlements_title()}>
          {summary.settledPaisa > 0 && (
            <p className="mb-2 text-sm text-slate-600">
              {m.earnings_settlements_total({ amount: formatPaisa(summary.settledPaisa) })}
            </p>
          )}
          <Transfers rows={summary.settlements} none={m.earnings_settlements_none()} />
        </Section>
      )}
    </>
  );
}

/** Payouts to the professional, or cash commission they handed over: newest first. */
function Transfers({
  rows,
  none,
}: {
  rows: {
    _id: string;
    at: number;
    amountPaisa: number;
    method: PaymentMethod | PayoutMethod | null;
    reference: string | null;
  }[];
  none: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">{none}</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {rows.map((p) => (
        <li key={p._id} className="py-2 text-sm">
          <p className="font-medium text-slate-900">
            {m.earnings_payout_line({
              amount: formatPaisa(p.amountPaisa),
              method: p.method ? METHOD_LABELS[p.method]() : "—",
            })}
          </p>
          <p className="text-slate-600">
            <time dateTime={new Date(p.at).toISOString()}>{formatDateTime(p.at)}</time>
            {p.reference && (
              <span className="break-words">
                {" · "}
                {m.earnings_payout_reference({ reference: p.reference })}
              </span>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

function Jobs() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.earnings.jobs,
    {},
    { initialNumItems: EARNINGS_PAGE_SIZE },
  );
  return (
    <Section title={m.label_jobs()}>
      {status === "LoadingFirstPage" ? (
        <LoadingState label={m.earnings_loading()} />
      ) : results.length === 0 ? (
        <EmptyState title={m.earnings_jobs_none()} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {results.map((job) => {
            const services =
              job.services.map((s) => localServiceName(s)).join(", ") ||
              m.earnings_job_services_none();
            return (
              <li key={job._id} aria-label={services} className="py-3">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <p className="font-medium text-slate-900">{services}</p>
                  <time
                    dateTime={new Date(job.at).toISOString()}
                    className="text-sm text-slate-600"
                  >
                    {formatDateTime(job.at)}
                  </time>
                </div>
                <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
                  <Cell label={m.earnings_gross()} value={formatPaisa(job.grossPaisa)} />
                  <Cell label={m.label_commission()} value={formatPaisa(job.commissionPaisa)} />
                  <Cell label={m.earnings_net()} value={formatPaisa(job.netPaisa)} strong />
                  <Cell
                    label={m.label_paid_by()}
                    value={job.method ? METHOD_LABELS[job.method]() : "—"}
                  />
                </dl>
              </li>
            );
          })}
        </ul>
      )}
      <LoadMore
        status={status}
        onMore={() => loadMore(EARNINGS_PAGE_SIZE)}
        label={m.earnings_more()}
        loadingLabel={m.earnings_loading_more()}
      />
    </Section>
  );
}

function Cell({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className={strong ? "font-semibold text-slate-900" : "text-slate-800"}>{value}</dd>
    </div>
  );
}
