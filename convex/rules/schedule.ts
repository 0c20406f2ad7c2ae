/**
 * When a professional can be booked and when a job may move: working hours, the clash rule and the
 * one-hour rule. The server refuses with them and the web app explains the same limits beforehand.
 */

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
/** Nepal keeps UTC+5:45 all year (no daylight saving). */
const KATHMANDU_OFFSET_MINUTES = 5 * 60 + 45;

/** Working hours as minutes after midnight, Kathmandu time: [start, end). */
export type WorkingHours = { start: number; end: number };

/** What the working-hours form proposes; a professional who never set hours takes bookings at any time. */
export const SUGGESTED_WORKING_HOURS: WorkingHours = { start: 7 * 60, end: 19 * 60 };

/** A booked job is taken to occupy the professional this long: two jobs closer than this clash. */
export const JOB_SLOT_MS = 2 * HOUR;

/** Start trip, Arrived and Complete work are refused earlier than this before the booked time. */
export const STEP_LEAD_MS = HOUR;

/** Minutes after midnight of an instant on a Kathmandu wall clock. */
export function kathmanduMinuteOfDay(ms: number): number {
  const minutes = Math.floor(ms / MINUTE) + KATHMANDU_OFFSET_MINUTES;
  return ((minutes % 1440) + 1440) % 1440;
}

/** "07:00" from minutes after midnight. */
export function clock(minuteOfDay: number): string {
  const h = Math.floor(minuteOfDay / 60);
  const m = minuteOfDay % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

/** Whether a job starting at `at` starts within the working hours (none set: any time). */
export function withinWorkingHours(at: number, hours: WorkingHours | undefined): boolean {
  if (hours === undefined) return true;
  const minute = kathmanduMinuteOfDay(at);
  return minute >= hours.start && minute < hours.end;
}

/** Whether start and end make a working day: whole minutes, start before end, within one day. */
export function validWorkingHours(hours: WorkingHours): boolean {
  const { start, end } = hours;
  return (
    Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end <= 1440 && start < end
  );
}

/** The first of `taken` (start times of accepted jobs) that a job at `at` would clash with. */
export function clashWith(at: number, taken: readonly number[]): number | undefined {
  return taken.find((t) => Math.abs(t - at) < JOB_SLOT_MS);
}

/** The earliest moment a lifecycle step may be taken for a job booked at `scheduledFor`. */
export function stepsOpenAt(scheduledFor: number): number {
  return scheduledFor - STEP_LEAD_MS;
}

/** Whether it is too early (more than STEP_LEAD_MS before the booked time) for a lifecycle step. */
export function tooEarlyForSteps(scheduledFor: number, now: number): boolean {
  return now < stepsOpenAt(scheduledFor);
}
