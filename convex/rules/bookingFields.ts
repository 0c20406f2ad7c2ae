/** What a booking's free-text fields may hold: the server refuses more, the forms say so first. */
export const BOOKING_FIELDS = {
  address: { min: 2, max: 300 },
  note: { max: 1000 },
  /** Why a booking is cancelled or rejected: the other party reads it. */
  reason: { min: 3, max: 500 },
  reviewComment: { max: 1000 },
} as const;
