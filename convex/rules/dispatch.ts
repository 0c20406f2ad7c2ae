/**
 * "Nearest available now": a customer's request is offered to the nearest bookable professionals a
 * few at a time; the first to accept gets the booking. The statuses, the batch size and the live
 * progress line are shared by the server (model/dispatch.ts) and the web app.
 */

export const REQUEST_STATUSES = ["searching", "matched", "cancelled", "unmatched"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * An offer is `offered` until its professional answers or its time runs out; when another
 * professional accepted first it is `taken`, when the customer cancelled or the search ended
 * `withdrawn`, and `left` when its professional stopped being dispatchable before answering (signed
 * out, timed out of presence, went unavailable, was suspended): it leaves their screen at once.
 */
export const OFFER_STATUSES = [
  "offered",
  "accepted",
  "declined",
  "timed_out",
  "taken",
  "withdrawn",
  "left",
] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const DISPATCH = {
  /** Offers open at once. */
  batch: 3,
  /** Professionals offered one request at most, in all. */
  maxOffers: 30,
  /** The nearest-first search reads grid rings out to this (~2.5 km), then the city's first `cityCap`. */
  maxRing: 5,
  cityCap: 200,
  /** Nearest-first searches per top-up, each passing over professionals busy with a job now. */
  searchRounds: 4,
} as const;

export type Progress = { offered: number; declined: number; timedOut: number; waiting: number };

/**
 * The customer's live line: how many were offered, declined, let it pass (timed out, or left before
 * answering), and still deciding.
 */
export function progressOf(statuses: readonly OfferStatus[]): Progress {
  const count = (s: OfferStatus) => statuses.filter((x) => x === s).length;
  return {
    offered: statuses.length,
    declined: count("declined"),
    timedOut: count("timed_out") + count("left"),
    waiting: count("offered"),
  };
}
