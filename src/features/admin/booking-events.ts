import type { BookingStatus } from "@convex/rules/bookingLifecycle";
import { m } from "@/i18n/paraglide/messages";
import { roleLabel } from "@/features/admin/roles";

/** What a step of the event log did, by the status it led to. */
const STEP: Record<BookingStatus, () => string> = {
  requested: m.admin_event_requested,
  accepted: m.admin_event_accepted,
  rejected: m.admin_event_rejected,
  en_route: m.admin_event_en_route,
  arrived: m.admin_event_arrived,
  no_show: m.admin_event_no_show,
  in_progress: m.admin_event_in_progress,
  completed: m.admin_event_completed,
  reviewed: m.admin_event_reviewed,
  cancelled: m.admin_event_cancelled,
  expired: m.admin_event_expired,
};

export function eventLabel(to: BookingStatus): string {
  return STEP[to]();
}

/** Who took a step: "Sita Sharma (customer)", or GharSewa itself for a scheduled step. */
export function eventActor(actor: { name: string; role: string | null } | null): string {
  if (actor === null) return m.admin_event_by_system();
  const name = actor.name || m.admin_unnamed_user();
  return actor.role === null ? name : m.admin_event_by({ name, role: roleLabel(actor.role) });
}
