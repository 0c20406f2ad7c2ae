import type { BadgeTone } from "@/components/ui/badge";
import type { BookingStatus } from "@convex/rules/bookingLifecycle";
import { m } from "@/i18n/paraglide/messages";

export type StatusBadge = { label: string; tone: BadgeTone };
type Badge = { label: () => string; tone: BadgeTone };

/** Who looks at the booking: the professional's list words a few states differently. */
export type BookingAudience = "customer" | "professional" | "admin";

/** Every booking state's badge, in the order of a booking's life, with the professional's exceptions. */
const BOOKING_STATUS: Record<BookingStatus, Badge & { professional?: Partial<Badge> }> = {
  requested: { label: m.status_requested, tone: "info" },
  accepted: { label: m.status_accepted, tone: "success" },
  rejected: { label: m.status_rejected, tone: "danger" },
  en_route: { label: m.status_en_route, tone: "brand" },
  arrived: { label: m.status_arrived, tone: "brand" },
  in_progress: { label: m.status_in_progress, tone: "brand" },
  completed: { label: m.status_completed, tone: "success", professional: { tone: "neutral" } },
  reviewed: { label: m.status_reviewed, tone: "neutral" },
  cancelled: { label: m.status_cancelled, tone: "neutral" },
  expired: { label: m.status_expired, tone: "warning", professional: { tone: "neutral" } },
  no_show: { label: m.status_no_show, tone: "danger" },
};

/** The label and badge tone of a booking state as `audience` sees it. */
export function bookingStatusBadge(status: BookingStatus, audience: BookingAudience): StatusBadge {
  const { professional, ...badge } = BOOKING_STATUS[status];
  const seen = audience === "professional" ? { ...badge, ...professional } : badge;
  return { label: seen.label(), tone: seen.tone };
}
