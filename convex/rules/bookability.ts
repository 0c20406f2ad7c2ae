/**
 * Whether customers can book a professional, and if not, why: the search card, the profile page, the
 * professional's dashboard and bookings:create all ask this one rule.
 */
import { NO_SHOW } from "./noShow";

export type Bookability =
  | { bookable: true }
  | {
      bookable: false;
      code: "PROFESSIONAL_UNVERIFIED" | "PROFESSIONAL_UNAVAILABLE" | "PROFESSIONAL_ON_HOLD";
      /** To the customer. */
      reason: string;
      /** To the professional, on their own dashboard. */
      ownReason: string;
    };

export function bookability(pro: {
  verified: boolean;
  available: boolean;
  /** Too many no-shows, not yet reviewed by an admin (rules/noShow.ts). */
  onHold?: boolean;
}): Bookability {
  if (!pro.verified) {
    return {
      bookable: false,
      code: "PROFESSIONAL_UNVERIFIED",
      reason: "Not verified yet, so not taking bookings.",
      ownReason: "Customers cannot book you until an administrator has verified your documents.",
    };
  }
  if (pro.onHold) {
    return {
      bookable: false,
      code: "PROFESSIONAL_ON_HOLD",
      reason: "Not taking bookings until GharSewa has reviewed missed visits.",
      ownReason: `You missed or called off late ${NO_SHOW.strikes} bookings within 30 days: customers cannot book you until an administrator has reviewed them.`,
    };
  }
  if (!pro.available) {
    return {
      bookable: false,
      code: "PROFESSIONAL_UNAVAILABLE",
      reason: "Not taking bookings right now.",
      ownReason: "You are marked unavailable: customers cannot book you.",
    };
  }
  return { bookable: true };
}
