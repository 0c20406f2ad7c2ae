/**
 * Moving a booking to another time: its customer proposes one of the professional's free start times
 * (rules/schedule.ts freeSlots), the professional accepts or declines. Proposals close once the
 * professional is on the way, and `closesBeforeMs` before the booked time; a booking takes at most
 * `maxPerBooking` proposals, answered or not, and one waits for an answer at a time. The customer may
 * withdraw the waiting one; unanswered, it lapses once its time comes or the booking may no longer
 * move (proposalLapsesAt). The server (model/reschedules.ts) refuses with these and the web app offers
 * the buttons by the same rule.
 */
import type { BookingStatus } from "./bookingLifecycle";

export const RESCHEDULE = {
  maxPerBooking: 3,
  closesBeforeMs: 2 * 60 * 60 * 1000,
} as const;

/** A booking may move while it waits for an answer or is accepted, before the trip starts. */
export const RESCHEDULABLE: readonly BookingStatus[] = ["requested", "accepted"];

export const RESCHEDULE_STATUSES = [
  "proposed",
  "accepted",
  "declined",
  "withdrawn",
  "lapsed",
] as const;
export type RescheduleStatus = (typeof RESCHEDULE_STATUSES)[number];

export type RescheduleRefusal = "RESCHEDULE_CLOSED" | "RESCHEDULE_LIMIT" | "RESCHEDULE_PENDING";

/** The last moment a proposal may be made for a job booked at `scheduledFor`. */
export function rescheduleClosesAt(scheduledFor: number): number {
  return scheduledFor - RESCHEDULE.closesBeforeMs;
}

/**
 * When a proposal still unanswered lapses: at the time it proposes, or when the booking it would move
 * may no longer be moved (`closesBeforeMs` before the booked time), whichever comes first.
 */
export function proposalLapsesAt(to: number, scheduledFor: number): number {
  return Math.min(to, rescheduleClosesAt(scheduledFor));
}

/** Whether a waiting proposal can no longer be answered: its booking moved on, or its time came. */
export function proposalLapsed(
  p: { to: number },
  b: { status: BookingStatus; scheduledFor: number },
  now: number,
): boolean {
  return !RESCHEDULABLE.includes(b.status) || now >= proposalLapsesAt(p.to, b.scheduledFor);
}

/** Why a new proposal is refused now, or null if it may be made. */
export function proposalRefusal(b: {
  status: BookingStatus;
  scheduledFor: number;
  proposals: number;
  pending: boolean;
  now: number;
}): RescheduleRefusal | null {
  if (!RESCHEDULABLE.includes(b.status) || b.now > rescheduleClosesAt(b.scheduledFor))
    return "RESCHEDULE_CLOSED";
  if (b.pending) return "RESCHEDULE_PENDING";
  if (b.proposals >= RESCHEDULE.maxPerBooking) return "RESCHEDULE_LIMIT";
  return null;
}

/** Proposals a booking may still take. */
export function proposalsLeft(proposals: number): number {
  return Math.max(0, RESCHEDULE.maxPerBooking - proposals);
}
