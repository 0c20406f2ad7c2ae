import { useQuery } from "convex/react";
import { useMemo, useState } from "react";
import { api } from "@convex/_generated/api";
import type { RevenueFigures } from "@convex/model/revenue";
import { REVENUE_PERIODS, revenueBounds } from "@convex/rules/revenue";
import { BarChart } from "@/components/bar-chart";
import { LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { SectionCard } from "@/features/admin/section-card";
import { m } from "@/i18n/paraglide/messages";
import { bsMonthBounds, formatBsMonth } from "@/lib/bs-months";
import { formatDay, formatMonth } from "@/lib/format";
import { useKathmanduToday } from "@/lib/use-kathmandu-today";
import { formatNumber } from "@/lib/numbers";
import { formatPaisa } from "@/lib/rupees";

/** Kathmandu days, Gregorian months, or Bikram Sambat months (the calendar Nepal keeps its books in). */
const UNITS = ["day", "month", "bs_month"] as const;
type Unit = (typeof UNITS)[number];

const UNIT_LABELS: Record<Unit, () => string> = {
  day: m.revenue_by_day,
  month: m.revenue_by_month,
  bs_month: m.revenue_by_bs_month,
};

const BOUNDS: Record<Unit, (today: number) => number[]> = {
  day: (today) => revenueBounds("day", today),
  month: (today) => revenueBounds("month", today),
  bs_month: (today) => bsMonthBounds(today, REVENUE_PERIODS.month),
};

const LABELS: Record<Unit, (start: number) => string> = {
  day: (start) => formatDay(start),
  month: (start) => formatMonth(start),
  bs_month: (start) => formatBsMonth(start),
};

const COLUMNS: { label: () => string; value: (p: RevenueFigures) => string }[] = [
  { label: m.label_jobs, value: (p) => formatNumber(p.jobs) },
  { label: m.revenue_gross, value: (p) => formatPaisa(p.grossPaisa) },
  { label: m.revenue_gateway, value: (p) => formatPaisa(p.gatewayPaisa) },
  { label: m.revenue_cash, value: (p) => formatPaisa(p.cashPaisa) },
  { label: m.label_commission, value: (p) => formatPaisa(p.commissionPaisa) },
  { label: m.revenue_fees, value: (p) => formatPaisa(p.feesPaisa) },
  { label: m.revenue_income, value: (p) => formatPaisa(p.commissionPaisa + p.feeCommissionPaisa) },
  { label: m.revenue_refunds, value: (p) => formatPaisa(p.refundsPaisa) },
];

/** /admin/revenue: completed jobs, gross, commission and refunds per day or month, live. */
export default function RevenuePage() {
  const [unit, setUnit] = useState<Unit>("day");
  return (
    <AdminPageLayout
      title={m.admin_nav_revenue()}
      loadError={m.revenue_load_failed()}
      controls={
        <div className="mt-2 space-y-2">
          <p className="text-sm text-slate-600">{m.revenue_intro()}</p>
          <div role="group" aria-label={m.revenue_unit()} className="flex gap-2">
            {UNITS.map((u) => (
              <button
                key={u}
                type="button"
                aria-pressed={unit === u}
                onClick={() => setUnit(u)}
                className="min-h-11 rounded-lg px-4 text-sm font-medium ring-1 ring-slate-300 aria-pressed:bg-brand-600 aria-pressed:text-white aria-pressed:ring-brand-600"
              >
                {UNIT_LABELS[u]()}
              </button>
            ))}
          </div>
        </div>
      }
    >
      <Revenue unit={unit} />
    </AdminPageLayout>
  );
}

function Revenue({ unit }: { unit: Unit }) {
  // queries do not read the clock: the periods move on at midnight in Kathmandu, and with them
  // the query's arguments, so "today" is a new row without a reload
  const today = useKathmanduToday();
  const bounds = useMemo(() => BOUNDS[unit](today), [unit, today]);
  const data = useQuery(api.revenue.summary, { bounds });
  if (data === undefined) return <LoadingState label={m.revenue_loading()} />;
  const { periods, total } = data;
  const label = (p: { start: number }) => LABELS[unit](p.start);
  const first = label(periods[0]);
  const last = label(periods[periods.length - 1]);
  return (
    <div className="mt-4 grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] xl:items-start">
      <SectionCard title={m.revenue_chart_title()}>
        <BarChart
          values={periods.map((p) => p.grossPaisa)}
          label={m.revenue_chart_label({ from: first, to: last })}
          barLabel={(i) =>
            m.revenue_chart_bar({
              period: label(periods[i]),
              gross: formatPaisa(periods[i].grossPaisa),
              commission: formatPaisa(periods[i].commissionPaisa),
            })
          }
          axis={[first, last]}
        />
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          {COLUMNS.map((c) => (
            <div key={c.label()} className="rounded-lg bg-slate-50 p-2">
              <dt className="text-slate-600">{c.label()}</dt>
              <dd className="font-semibold text-slate-900" data-testid={`total-${c.label()}`}>
                {c.value(total)}
              </dd>
            </div>
          ))}
        </dl>
        {data.truncated && <p className="mt-2 text-sm text-amber-800">{m.revenue_truncated()}</p>}
      </SectionCard>
      <SectionCard title={m.revenue_table_title()}>
        <div className="overflow-x-auto">
          <table className="w-full text-right text-sm tabular-nums">
            <thead className="text-xs text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3 text-left font-medium">
                  {UNIT_LABELS[unit]()}
                </th>
                {COLUMNS.map((c) => (
                  <th key={c.label()} scope="col" className="px-2 py-2 font-medium">
                    {c.label()}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {[...periods].reverse().map((p) => (
                <tr
                  key={p.start}
                  className={p.jobs + p.feesPaisa + p.refundsPaisa === 0 ? "text-slate-400" : ""}
                >
                  <th scope="row" className="py-2 pr-3 text-left font-normal whitespace-nowrap">
                    {label(p)}
                  </th>
                  {COLUMNS.map((c) => (
                    <td key={c.label()} className="px-2 py-2 whitespace-nowrap">
                      {c.value(p)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </SectionCard>
    </div>
  );
}
