/**
 * Cancelling late: a customer who cancels once the professional is on the way (or has arrived) owes a
 * late-cancellation fee, the professional's wasted trip. The server bills it (a "fee" line: the bill
 * of the cancelled booking is the fee alone) and the cancel dialog shows it before the customer
 * confirms; both read it here.
 */
import type { BookingStatus } from "./bookingLifecycle";

/** Statuses in which a customer's cancellation costs the fee. */
export const LATE_CANCEL_STATUSES: readonly BookingStatus[] = ["en_route", "arrived"];

/** The fee: Nrs. 200, never more than the booking itself costs. */
export const LATE_CANCEL_FEE_PAISA = 20_000;

/** What a customer who cancels a booking in `status` whose bill is `billPaisa` owes (0: nothing). */
export function lateCancelFee(status: BookingStatus, billPaisa: number): number {
  if (!LATE_CANCEL_STATUSES.includes(status)) return 0;
  return billPaisa > 0 ? Math.min(LATE_CANCEL_FEE_PAISA, billPaisa) : LATE_CANCEL_FEE_PAISA;
}
