/**
 * Whether customers can book a professional, and if not, why: the search card, the profile page, the
 * professional's dashboard and bookings:create all ask this one rule.
 */

export type Bookability =
  | { bookable: true }
  | {
      bookable: false;
      code: "PROFESSIONAL_UNVERIFIED" | "PROFESSIONAL_UNAVAILABLE";
      /** To the customer. */
      reason: string;
      /** To the professional, on their own dashboard. */
      ownReason: string;
    };

export function bookability(pro: { verified: boolean; available: boolean }): Bookability {
  if (!pro.verified) {
    return {
      bookable: false,
      code: "PROFESSIONAL_UNVERIFIED",
      reason: "Not verified yet, so not taking bookings.",
      ownReason: "Customers cannot book you until an administrator has verified your documents.",
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
