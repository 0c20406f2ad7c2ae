import { usePaginatedQuery } from "convex/react";
import { useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { ReportStatus } from "@convex/rules/moderation";
import { Badge } from "@/components/ui/badge";
import { ReportStatusBadge } from "@/components/report-status-badge";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { reportedBy } from "@/features/admin/reported-by";
import { m } from "@/i18n/paraglide/messages";
import { reportCategoryLabel, reportTargetLabel } from "@/i18n/moderation";
import { paths } from "@/lib/paths";

const PAGE_SIZE = 20;

/** /admin/reports: the queue of open reports (or the resolved ones), newest first, live. */
export default function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const status: ReportStatus = params.get("status") === "resolved" ? "resolved" : "open";
  const tab = (value: ReportStatus, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={status === value}
      onClick={() => setParams(value === "open" ? {} : { status: value }, { replace: true })}
      className={`rounded-lg px-3 py-1.5 text-sm font-medium ${
        status === value
          ? "bg-slate-800 text-white"
          : "bg-white text-slate-700 ring-1 ring-slate-300"
      }`}
    >
      {label}
    </button>
  );
  return (
    <AdminPageLayout
      title={m.admin_nav_reports()}
      loadError={m.admin_reports_load_failed()}
      controls={
        <div role="tablist" className="mt-4 flex gap-2">
          {tab("open", m.report_status_open())}
          {tab("resolved", m.admin_reports_resolved())}
        </div>
      }
    >
      <ReportsList status={status} />
    </AdminPageLayout>
  );
}

function ReportsList({ status }: { status: ReportStatus }) {
  const {
    results,
    status: page,
    loadMore,
  } = usePaginatedQuery(api.adminReports.list, { status }, { initialNumItems: PAGE_SIZE });
  if (page === "LoadingFirstPage") return <LoadingState label={m.admin_reports_loading()} />;
  if (results.length === 0)
    return (
      <div className="mt-4">
        <EmptyState
          title={status === "open" ? m.admin_reports_none_open() : m.admin_reports_none()}
        />
      </div>
    );
  return (
    <div className="mt-4">
      <ul className="space-y-2">
        {results.map((r) => (
          <li
            key={r._id}
            className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Link to={paths.adminReport(r._id)} className="font-medium text-brand-700 underline">
                {reportCategoryLabel(r.category)}
              </Link>
              <div className="flex gap-1">
                <Badge tone="info">{reportTargetLabel(r.target)}</Badge>
                <ReportStatusBadge status={r.status} />
              </div>
            </div>
            <p className="mt-1 text-sm text-slate-600">{reportedBy(r)}</p>
            <p className="mt-1 line-clamp-2 text-sm break-words text-slate-800" translate="no">
              {r.text}
            </p>
          </li>
        ))}
      </ul>
      {page === "CanLoadMore" && (
        <Button variant="secondary" className="mt-4" onClick={() => loadMore(PAGE_SIZE)}>
          {m.admin_bookings_more()}
        </Button>
      )}
      {page === "LoadingMore" && <LoadingState label={m.admin_reports_loading()} />}
    </div>
  );
}
