/**
 * When a professional can be booked and when a job may move: working hours, the clash rule and the
 * one-hour rule. The server refuses with them and the web app explains the same limits beforehand.
 */
import * as z from "zod/mini";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
/** Nepal keeps UTC+5:45 all year (no daylight saving). */
const KATHMANDU_OFFSET_MINUTES = 5 * 60 + 45;

/** "2026-11-28 14:30": an instant on a Kathmandu calendar and clock, for messages. */
export function kathmanduDateTimeText(ms: number): string {
  return new Date(ms + KATHMANDU_OFFSET_MINUTES * MINUTE)
    .toISOString()
    .slice(0, 16)
    .replace("T", " ");
}

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

/**
 * How long a job occupies the professional, by catalogue category, when the admin has set no length
 * on the service itself (services.jobMinutes). Bookings made before lengths existed count as
 * DEFAULT_JOB_MINUTES.
 */
export const CATEGORY_JOB_MINUTES: Readonly<Record<string, number>> = {
  electrical: 120,
  laundry: 60,
  carpentry: 180,
  plumbing: 90,
  "ac-fridge": 120,
  painting: 240,
  cctv: 180,
  "tile-marble": 240,
  "aluminium-upvc": 180,
  "home-appliance": 90,
  "water-purifier": 60,
  mason: 240,
  solar: 180,
  jyotish: 60,
};
export const DEFAULT_JOB_MINUTES = 120;

/** Start times are offered every this many minutes on the Kathmandu clock (:00 and :30). */
export const SLOT_STEP_MINUTES = 30;
/** Free start times are offered for this many Kathmandu days, today included. */
export const SLOT_DAYS = 7;
/** The first start time offered is at least this far ahead: the professional must answer and travel. */
export const SLOT_LEAD_MINUTES = 60;
/** A job's length (a booking's, summed over its services) is kept within these bounds. */
export const JOB_MINUTES_LIMITS = { min: SLOT_STEP_MINUTES, max: 8 * 60 } as const;

/** What an admin may set as a service's job length: whole half hours within JOB_MINUTES_LIMITS. */
export const jobMinutesRule = z
  .int({ error: "The job length must be a whole number of minutes." })
  .check(
    z.minimum(JOB_MINUTES_LIMITS.min, { error: "A job takes at least 30 minutes." }),
    z.maximum(JOB_MINUTES_LIMITS.max, { error: "A job takes at most 8 hours." }),
    z.refine((m) => m % SLOT_STEP_MINUTES === 0, { error: "Use whole half hours." }),
  );

/**
 * A booking's job length: its services' lengths added up (the admin's, else the category's), rounded
 * up to a half hour and kept within JOB_MINUTES_LIMITS.
 */
export function jobMinutesOf(services: readonly { category: string; jobMinutes?: number }[]) {
  const sum = services.reduce(
    (total, s) => total + (s.jobMinutes ?? CATEGORY_JOB_MINUTES[s.category] ?? DEFAULT_JOB_MINUTES),
    0,
  );
  const rounded = Math.ceil(sum / SLOT_STEP_MINUTES) * SLOT_STEP_MINUTES;
  return Math.min(JOB_MINUTES_LIMITS.max, Math.max(JOB_MINUTES_LIMITS.min, rounded));
}

/** A time the professional is taken: [start, end) in UTC milliseconds. */
export type Busy = { start: number; end: number };

/** The time a job booked at `at` for `jobMinutes` (absent on old bookings) occupies. */
export function busyOf(at: number, jobMinutes: number | undefined): Busy {
  return { start: at, end: at + (jobMinutes ?? DEFAULT_JOB_MINUTES) * MINUTE };
}

/** How far before a time a job that overlaps it may start: the longest job. */
export const LONGEST_JOB_MS = JOB_MINUTES_LIMITS.max * MINUTE;

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

/**
 * Whether a job starting at `at` and lasting `jobMinutes` fits in the working hours: it starts on a
 * working day at or after the start and ends by the end (none set: any time).
 */
export function withinWorkingHours(
  at: number,
  hours: WorkingHours | undefined | null,
  jobMinutes = 0,
): boolean {
  if (!hours) return true;
  const minute = kathmanduMinuteOfDay(at);
  return (
    hours.days.includes(kathmanduWeekday(at)) &&
    minute >= hours.start &&
    minute < hours.end &&
    minute + jobMinutes <= hours.end
  );
}

/** The first of `taken` that a job at `at` lasting `jobMinutes` would overlap. */
export function clashWith(
  at: number,
  jobMinutes: number | undefined,
  taken: readonly Busy[],
): Busy | undefined {
  const job = busyOf(at, jobMinutes);
  return taken.find((b) => b.start < job.end && job.start < b.end);
}

/** Midnight of the Kathmandu day holding `ms`, as UTC milliseconds. */
export function kathmanduDayStart(ms: number): number {
  return ms - kathmanduMinuteOfDay(ms) * MINUTE - (ms % MINUTE);
}

/**
 * The free start times, every SLOT_STEP_MINUTES on the Kathmandu clock, from SLOT_LEAD_MINUTES after
 * `now` to the end of the SLOT_DAYS-th Kathmandu day (today counts as the first), at most `limit`:
 * the whole job fits in the working hours (a professional who set none is offered the suggested
 * hours) and overlaps nothing in `busy`. Linear in slots + busy.
 */
export function freeSlots(args: {
  now: number;
  hours: WorkingHours | undefined | null;
  busy: readonly Busy[];
  jobMinutes: number;
  days?: number;
  limit?: number;
}): number[] {
  const hours = args.hours ?? SUGGESTED_WORKING_HOURS;
  const earliest = args.now + SLOT_LEAD_MINUTES * MINUTE;
  const length = args.jobMinutes * MINUTE;
  const busy = [...args.busy].sort((a, b) => a.start - b.start);
  const firstStart = Math.ceil(hours.start / SLOT_STEP_MINUTES) * SLOT_STEP_MINUTES;
  const today = kathmanduDayStart(args.now);
  const limit = args.limit ?? Infinity;
  const slots: number[] = [];
  let lo = 0;
  for (let d = 0; d < (args.days ?? SLOT_DAYS); d++) {
    const midnight = today + d * 24 * HOUR;
    if (!hours.days.includes(kathmanduWeekday(midnight))) continue;
    for (let m = firstStart; m + args.jobMinutes <= hours.end; m += SLOT_STEP_MINUTES) {
      const start = midnight + m * MINUTE;
      if (start < earliest) continue;
      const end = start + length;
      // busy is sorted by start and no job is longer than LONGEST_JOB_MS
      while (lo < busy.length && busy[lo].start <= start - LONGEST_JOB_MS) lo++;
      let free = true;
      for (let j = lo; j < busy.length && busy[j].start < end; j++) {
        if (busy[j].end > start) {
          free = false;
          break;
        }
      }
      if (free) {
        slots.push(start);
        if (slots.length >= limit) return slots;
      }
    }
  }
  return slots;
}

/** The earliest moment a lifecycle step may be taken for a job booked at `scheduledFor`. */
export function stepsOpenAt(scheduledFor: number): number {
  return scheduledFor - STEP_LEAD_MS;
}

/** Whether it is too early (more than STEP_LEAD_MS before the booked time) for a lifecycle step. */
export function tooEarlyForSteps(scheduledFor: number, now: number): boolean {
  return now < stepsOpenAt(scheduledFor);
}
