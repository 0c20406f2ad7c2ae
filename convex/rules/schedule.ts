/**
 * When a professional can be booked and when a job may move: working hours, the clash rule and the
 * one-hour rule. The server refuses with them and the web app explains the same limits beforehand.
 */
import * as z from "zod/mini";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
/** Nepal keeps UTC+5:45 all year (no daylight saving). */
const KATHMANDU_OFFSET_MINUTES = 5 * 60 + 45;

/** Days of the week on a Kathmandu calendar, 0 = Sunday … 6 = Saturday (Nepal's day off). */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * Working hours: the weekdays worked, and from/to as minutes after midnight, Kathmandu time:
 * [start, end). The server parses setWorkingHours with this and the dashboard form checks it first.
 */
const minuteOfDayRule = (label: string, min: number, max: number) =>
  z
    .int({ error: `The ${label} must be a whole minute of the day.` })
    .check(
      z.minimum(min, { error: `The ${label} must be a whole minute of the day.` }),
      z.maximum(max, { error: `The ${label} must be a whole minute of the day.` }),
    );

export const workingHoursRule = z
  .object({
    days: z
      .array(
        z.int({ error: "Each working day must be a weekday (0 = Sunday … 6 = Saturday)." }).check(
          z.minimum(0, {
            error: "Each working day must be a weekday (0 = Sunday … 6 = Saturday).",
          }),
          z.maximum(6, {
            error: "Each working day must be a weekday (0 = Sunday … 6 = Saturday).",
          }),
        ),
        { error: "Choose at least one working day." },
      )
      .check(
        z.minLength(1, { error: "Choose at least one working day." }),
        z.refine((days) => new Set(days).size === days.length, {
          error: "Each day may be chosen once.",
        }),
      ),
    start: minuteOfDayRule("start time", 0, 1439),
    end: minuteOfDayRule("end time", 1, 1440),
  })
  .check(
    z.refine((h) => h.start < h.end, {
      error: "The end time must be after the start time.",
      path: ["end"],
    }),
  );

export type WorkingHours = z.infer<typeof workingHoursRule>;

/** What the working-hours form proposes; a professional who never set hours takes bookings at any time. */
export const SUGGESTED_WORKING_HOURS: WorkingHours = {
  days: [0, 1, 2, 3, 4, 5],
  start: 7 * 60,
  end: 19 * 60,
};

/** A booked job is taken to occupy the professional this long: two jobs closer than this clash. */
export const JOB_SLOT_MS = 2 * HOUR;

/** Start trip, Arrived and Complete work are refused earlier than this before the booked time. */
export const STEP_LEAD_MS = HOUR;

/** Minutes after midnight of an instant on a Kathmandu wall clock. */
export function kathmanduMinuteOfDay(ms: number): number {
  const minutes = Math.floor(ms / MINUTE) + KATHMANDU_OFFSET_MINUTES;
  return ((minutes % 1440) + 1440) % 1440;
}

/** The weekday (0 = Sunday) of an instant on a Kathmandu calendar. */
export function kathmanduWeekday(ms: number): number {
  return new Date(ms + KATHMANDU_OFFSET_MINUTES * MINUTE).getUTCDay();
}

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** "Sun, Mon, Tue" (English day names, for the server's messages). */
export function dayList(days: readonly number[]): string {
  return [...days]
    .sort((a, b) => a - b)
    .map((d) => DAY_NAMES[d])
    .join(", ");
}

/** "07:00" from minutes after midnight. */
export function clock(minuteOfDay: number): string {
  const h = Math.floor(minuteOfDay / 60);
  const m = minuteOfDay % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

/** Minutes after midnight from "HH:MM" (a time input's value); NaN if it is not one. */
export function minuteOfDay(clockText: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(clockText);
  if (!match) return Number.NaN;
  const [h, m] = [Number(match[1]), Number(match[2])];
  return h < 24 && m < 60 ? h * 60 + m : Number.NaN;
}

/** Whether a job starting at `at` starts on a working day within the hours (none set: any time). */
export function withinWorkingHours(at: number, hours: WorkingHours | undefined | null): boolean {
  if (!hours) return true;
  const minute = kathmanduMinuteOfDay(at);
  return hours.days.includes(kathmanduWeekday(at)) && minute >= hours.start && minute < hours.end;
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
