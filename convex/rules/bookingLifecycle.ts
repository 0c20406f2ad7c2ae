/**
 * The booking lifecycle as pure data: every status, every allowed edge, who may take it and the step
 * (the `api.bookings.<step>` mutation) that takes it. The server checks transitions with it and the web
 * app derives its buttons from it, so the two cannot disagree.
 */

export const BOOKING_STATUSES = [
  "requested",
  "accepted",
  "rejected",
  "en_route",
  "arrived",
  "in_progress",
  "completed",
  "reviewed",
  "cancelled",
  "expired",
  "no_show",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * Who may move a booking along an edge. "system" is the scheduled expiry; "admin" cancels a booking
 * (adminBookings:cancel) and the open bookings of an account it suspends (model/suspension.ts).
 */
export type Actor = "customer" | "professional" | "admin" | "system";

/**
 * Every allowed edge and who may take it. Anything not listed is illegal.
 * Customers may cancel until the job starts (once the professional is on the way, for a fee:
 * rules/cancellation.ts); professionals once they accepted; an admin at any point before the job is
 * completed. An arrived professional starts the job with the
 * customer's start code; after too many wrong codes the customer starts it (rules/startCode.ts). A
 * customer whose professional has not arrived long after the booked time closes it as a no-show
 * (rules/noShow.ts).
 */
export const TRANSITIONS: Partial<
  Record<BookingStatus, Partial<Record<BookingStatus, readonly Actor[]>>>
> = {
  requested: {
    accepted: ["professional"],
    rejected: ["professional"],
    cancelled: ["customer", "admin"],
    expired: ["system"],
  },
  accepted: {
    en_route: ["professional"],
    cancelled: ["customer", "professional", "admin"],
    no_show: ["customer"],
  },
  en_route: {
    arrived: ["professional"],
    cancelled: ["customer", "professional", "admin"],
    no_show: ["customer"],
  },
  arrived: {
    in_progress: ["professional", "customer"],
    cancelled: ["customer", "professional", "admin"],
  },
  in_progress: { completed: ["professional"], cancelled: ["admin"] },
  completed: { reviewed: ["customer"] },
};

/** The mutations a person calls to move a booking, by the status each one leads to. */
export const STEPS = {
  accept: "accepted",
  reject: "rejected",
  startTrip: "en_route",
  arrive: "arrived",
  start: "in_progress",
  complete: "completed",
  cancel: "cancelled",
  noShow: "no_show",
} as const satisfies Record<string, BookingStatus>;
export type Step = keyof typeof STEPS;

/** The steps `actor` may take on a booking in `status`, in the table's order. */
export function stepsFor(status: BookingStatus, actor: Actor): Step[] {
  const edges = TRANSITIONS[status] ?? {};
  return (Object.keys(STEPS) as Step[]).filter((step) => edges[STEPS[step]]?.includes(actor));
}

/**
 * Statuses of a booking under way: the customer may see the professional's exact position and phone,
 * and neither of them may delete their account.
 */
export const ACTIVE_STATUSES: readonly BookingStatus[] = [
  "accepted",
  "en_route",
  "arrived",
  "in_progress",
];

/** Bookings that still wait for an answer or are under way. */
export const OPEN_STATUSES: readonly BookingStatus[] = ["requested", ...ACTIVE_STATUSES];

export const STATUS_LABEL: Record<BookingStatus, string> = {
  requested: "requested",
  accepted: "accepted",
  rejected: "rejected",
  en_route: "on the way",
  arrived: "arrived",
  in_progress: "in progress",
  completed: "completed",
  reviewed: "reviewed",
  cancelled: "cancelled",
  expired: "expired",
  no_show: "closed as a no-show",
};

/**
 * A job is done when its customer says so. The professional's "complete" (work done) makes a booking
 * completed but unconfirmed; the customer confirms it, or, having said nothing for
 * `autoConfirmAfterMs`, is taken to agree (a scheduled confirmation: a professional's finished job
 * must not hang on a customer who forgot). Only a confirmed job may be reviewed.
 *
 * A review of a job that went from accepted to work done in under `plausibleJobMs` (no real visit is
 * that quick: the professional tapped through the steps) is held: kept out of the rating and the
 * public list until an admin publishes or removes it. That is what stops a professional rating
 * themself through a customer account of their own, which can confirm as readily as anyone.
 */
export const COMPLETION = {
  autoConfirmAfterMs: 48 * 60 * 60 * 1000,
  plausibleJobMs: 15 * 60 * 1000,
} as const;

export type ConfirmedBy = "customer" | "system";

/** A completed job whose customer has not yet confirmed it. */
export function awaitsConfirmation(b: {
  status: BookingStatus;
  confirmedBy?: ConfirmedBy | null;
}): boolean {
  return b.status === "completed" && !b.confirmedBy;
}

/** From accepted to work done faster than any real visit. */
export function implausiblyFast(acceptedAt: number, workDoneAt: number): boolean {
  return workDoneAt - acceptedAt < COMPLETION.plausibleJobMs;
}

export type TransitionCheck =
  { kind: "apply" } | { kind: "noop" } | { kind: "illegal"; message: string };

/** Pure decision: apply, no-op (retry to the current state), or refuse with a readable reason. */
export function checkTransition(
  from: BookingStatus,
  to: BookingStatus,
  actor: Actor,
): TransitionCheck {
  if (from === to) return { kind: "noop" };
  const actors = TRANSITIONS[from]?.[to];
  if (actors === undefined) {
    return {
      kind: "illegal",
      message: `A ${STATUS_LABEL[from]} booking cannot become ${STATUS_LABEL[to]}.`,
    };
  }
  if (!actors.includes(actor)) {
    return {
      kind: "illegal",
      message: `A ${actor} cannot move a ${STATUS_LABEL[from]} booking to ${STATUS_LABEL[to]}.`,
    };
  }
  return { kind: "apply" };
}
