import { useQuery } from "convex/react";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { SectionCard } from "@/features/admin/section-card";
import { m } from "@/i18n/paraglide/messages";
import { formatDateTime } from "@/lib/format";
import { formatPaisa } from "@/lib/rupees";
import { paths } from "@/lib/paths";

/** Cash payments customers disputed, live; each opens its report, where it is settled. */
export function DisputedCash() {
  const rows = useQuery(api.cashDisputes.open, {});
  return (
    <SectionCard title={m.disputes_title()}>
      {rows === undefined ? (
        <LoadingState label={m.payouts_loading()} />
      ) : rows.length === 0 ? (
        <EmptyState title={m.disputes_none()} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {rows.map((row) => (
            <li key={row.paymentId} className="py-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="min-w-0 font-medium text-slate-900">
                  {m.disputes_row({
                    customer: row.customerName,
                    amount: formatPaisa(row.amountPaisa),
                    professional: row.professionalName,
                  })}
                </p>
                {row.reportId && (
                  <Link
                    to={paths.adminReport(row.reportId)}
                    className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
                  >
                    {m.disputes_settle()}
                  </Link>
                )}
              </div>
              <p className="text-slate-600">
                {m.disputes_since({ when: formatDateTime(row.disputedAt) })}
              </p>
              <p className="mt-1 break-words text-slate-800" translate="no">
                {row.text}
              </p>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
