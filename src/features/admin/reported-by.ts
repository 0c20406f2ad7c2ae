import { m } from "@/i18n/paraglide/messages";
import { roleLabel } from "@/features/admin/roles";
import { formatDateTime } from "@/lib/format";

type Reported = { reporter: { name: string; role: string | null }; _creationTime: number };

/** "Reported by Sita (customer), 24 Nov 2026 10:15" — the line under a report in the queue and on its page. */
export function reportedBy(r: Reported): string {
  return m.admin_reports_by({
    name: r.reporter.name || m.admin_unnamed_user(),
    role: r.reporter.role ? roleLabel(r.reporter.role) : "",
    when: formatDateTime(r._creationTime),
  });
}
