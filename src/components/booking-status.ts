import type { BadgeTone } from "@/components/ui/badge";
import type { BookingStatus } from "@convex/rules/bookingLifecycle";

export type StatusBadge = { label: string; tone: BadgeTone };

/** Who looks at the booking: the professional's list words a few states differently. */
export type BookingAudience = "customer" | "professional" | "admin";

/** Every booking state's badge, in the order of a booking's life, with the professional's exceptions. */
const BOOKING_STATUS: Record<BookingStatus, StatusBadge & { professional?: Partial<StatusBadge> }> =
  {
    requested: { label: "Requested", tone: "info", professional: { label: "Pending" } },
    accepted: { label: "Accepted", tone: "success" },
    rejected: { label: "Rejected", tone: "danger" },
    en_route: { label: "On the way", tone: "brand" },
    in_progress: { label: "In progress", tone: "brand" },
    completed: { label: "Completed", tone: "success", professional: { tone: "neutral" } },
    reviewed: { label: "Reviewed", tone: "neutral" },
    cancelled: { label: "Cancelled", tone: "neutral" },
    expired: { label: "Expired", tone: "warning", professional: { tone: "neutral" } },
  };

/** The label and badge tone of a booking state as `audience` sees it. */
export function bookingStatusBadge(status: BookingStatus, audience: BookingAudience): StatusBadge {
  const { professional, ...badge } = BOOKING_STATUS[status];
  return audience === "professional" ? { ...badge, ...professional } : badge;
}
