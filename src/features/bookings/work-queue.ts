import { ACTIVE_STATUSES, type BookingStatus } from "@convex/rules/bookingLifecycle";
import { busyOf, clashWith } from "@convex/rules/schedule";

/** Work queue order: requests waiting for an answer, then jobs under way, then everything past. */
function rank(status: BookingStatus): number {
  if (status === "requested") return 0;
  return ACTIVE_STATUSES.includes(status) ? 1 : 2;
}

/**
 * The bookings in queue order (rank; requests newest first, jobs by booked time, the past newest
 * first), each request with the accepted job it clashes with (rules/schedule.ts), if any.
 */
export function workQueue<
  B extends { status: BookingStatus; scheduledFor: number; jobMinutes?: number },
>(bookings: readonly B[]): { booking: B; clashAt?: number }[] {
  const taken = bookings
    .filter((b) => ACTIVE_STATUSES.includes(b.status))
    .map((b) => busyOf(b.scheduledFor, b.jobMinutes));
  return bookings
    .map((booking, i) => ({ booking, i }))
    .sort(
      (a, b) =>
        rank(a.booking.status) - rank(b.booking.status) ||
        (rank(a.booking.status) === 1
          ? a.booking.scheduledFor - b.booking.scheduledFor
          : a.i - b.i),
    )
    .map(({ booking }) => ({
      booking,
      ...(booking.status === "requested"
        ? { clashAt: clashWith(booking.scheduledFor, booking.jobMinutes, taken)?.start }
        : {}),
    }));
}
