/**
 * Cancelling late, once the professional is on the way (or has arrived). A customer who cancels then
 * owes a late-cancellation fee, the professional's wasted trip: the server bills it (a "fee" line: the
 * bill of the cancelled booking is the fee alone) and the cancel dialog shows it before the customer
 * confirms. A professional who calls the job off then gets a strike, counted with no-shows
 * (rules/noShow.ts), and the customer is refunded in full. The fee is an admin setting
 * (`lateCancelFeeNrs`, rules/settings.ts) within the bounds below; server and web app read them here.
 */
import type { BookingStatus } from "./bookingLifecycle";
import { rupeesToPaisa } from "./money";

/** Statuses in which a cancellation is late. */
export const LATE_CANCEL_STATUSES: readonly BookingStatus[] = ["en_route", "arrived"];

/** The fee in whole rupees: its default and the bounds an admin may set it within (0: no fee). */
export const LATE_CANCEL_FEE_NRS: { default: number; min: number; max: number } = {
  default: 200,
  min: 0,
  max: 2000,
};

export function isLateCancel(status: BookingStatus): boolean {
  return LATE_CANCEL_STATUSES.includes(status);
}

/**
 * What a customer who cancels a booking in `status` whose bill is `billPaisa` owes when the fee is
 * `feeNrs` (0: nothing): never more than the booking itself costs.
 */
export function lateCancelFee(status: BookingStatus, billPaisa: number, feeNrs: number): number {
  if (!isLateCancel(status)) return 0;
  const fee = rupeesToPaisa(feeNrs);
  return billPaisa > 0 ? Math.min(fee, billPaisa) : fee;
}
