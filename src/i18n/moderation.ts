import type { ReportCategory, ReportStatus, ReportTarget } from "@convex/rules/moderation";
import { m } from "@/i18n/paraglide/messages";

const CATEGORY: Record<ReportCategory, () => string> = {
  no_show: m.report_category_no_show,
  poor_work: m.report_category_poor_work,
  overcharge: m.report_category_overcharge,
  rude: m.report_category_rude,
  safety: m.report_category_safety,
  false_review: m.report_category_false_review,
  cash_dispute: m.report_category_cash_dispute,
  other: m.report_category_other,
};

/** What a report is about, in the reader's language. */
export function reportCategoryLabel(category: ReportCategory): string {
  return CATEGORY[category]();
}

const STATUS: Record<ReportStatus, () => string> = {
  open: m.report_status_open,
  resolved: m.report_status_resolved,
};

export function reportStatusLabel(status: ReportStatus): string {
  return STATUS[status]();
}

const TARGET: Record<ReportTarget, () => string> = {
  booking: m.report_target_booking,
  review: m.report_target_review,
  message: m.report_target_message,
};

/** What a report is about: the booking, its review or a message of its conversation. */
export function reportTargetLabel(target: ReportTarget): string {
  return TARGET[target]();
}
