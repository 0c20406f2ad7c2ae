/**
 * No-shows: a customer whose professional has not arrived `noShowAfterMinutes` (an admin setting,
 * rules/settings.ts) after the booked time may close the booking as a no-show. The professional gets
 * a strike; `strikes` strikes within `windowMs` stop customers booking them until an admin has
 * reviewed them (rules/bookability.ts). Server (model/noShows.ts) and web app read these from here.
 */
export const NO_SHOW: { strikes: number; windowMs: number; defaultAfterMinutes: number } = {
  strikes: 3,
  windowMs: 30 * 24 * 60 * 60 * 1000,
  defaultAfterMinutes: 30,
};

/** From when the customer may mark a no-show. */
export function noShowOpensAt(scheduledFor: number, afterMinutes: number): number {
  return scheduledFor + afterMinutes * 60_000;
}

/** Whether `count` strikes within the window put the professional on hold. */
export function strikesHold(count: number): boolean {
  return count >= NO_SHOW.strikes;
}
