import type { BadgeTone } from "@/components/ui/badge";
import type { BookingStatus } from "../../../convex/validators";

export const STATUS_BADGE: Record<BookingStatus, { label: string; tone: BadgeTone }> = {
  requested: { label: "Requested", tone: "info" },
  accepted: { label: "Accepted", tone: "success" },
  rejected: { label: "Rejected", tone: "danger" },
  en_route: { label: "On the way", tone: "brand" },
  in_progress: { label: "In progress", tone: "brand" },
  completed: { label: "Completed", tone: "success" },
  reviewed: { label: "Reviewed", tone: "neutral" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  expired: { label: "Expired", tone: "warning" },
};

/** The customer may cancel until the professional is on the way. */
export const CUSTOMER_CANCELLABLE: readonly BookingStatus[] = ["requested", "accepted"];
