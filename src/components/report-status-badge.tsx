import type { ReportStatus } from "@convex/rules/moderation";
import { Badge } from "@/components/ui/badge";
import { m } from "@/i18n/paraglide/messages";

/** A report's status, for its reporter and the admin alike. */
export function ReportStatusBadge({ status }: { status: ReportStatus }) {
  return status === "open" ? (
    <Badge tone="warning">{m.report_status_open()}</Badge>
  ) : (
    <Badge tone="success">{m.report_status_resolved()}</Badge>
  );
}
