import { describe, expect, test } from "vitest";
import {
  busyOf,
  clashWith,
  freeSlots,
  jobMinutesOf,
  jobMinutesRule,
  kathmanduDayStart,
  clock,
  kathmanduMinuteOfDay,
  tooEarlyForSteps,
  kathmanduWeekday,
  minuteOfDay,
  workingHoursRule,
  withinWorkingHours,
} from "./schedule";

const HOUR = 3_600_000;
/** 2026-01-15 00:00 in Kathmandu is 2026-01-14 18:15 UTC. */
const MIDNIGHT = Date.UTC(2026, 0, 14, 18, 15);

describe("schedule rules", () => {
  test("minutes of the day on a Kathmandu clock (UTC+5:45)", () => {
    expect(kathmanduMinuteOfDay(MIDNIGHT)).toBe(0);
    expect(kathmanduMinuteOfDay(MIDNIGHT + 9.5 * HOUR)).toBe(570);
    expect(clock(570)).toBe("09:30");
  });

  test("working hours: working days and [start, end), none set means any time", () => {
    // 2026-01-15 is a Thursday (4)
    expect(kathmanduWeekday(MIDNIGHT)).toBe(4);
    expect(kathmanduWeekday(MIDNIGHT - 1)).toBe(3);
    const hours = { days: [0, 1, 2, 3, 4, 5], start: 7 * 60, end: 19 * 60 };
    expect(withinWorkingHours(MIDNIGHT + 7 * HOUR, hours)).toBe(true);
    expect(withinWorkingHours(MIDNIGHT + 19 * HOUR, hours)).toBe(false);
    expect(withinWorkingHours(MIDNIGHT + 6.99 * HOUR, hours)).toBe(false);
    // Saturday, Nepal's day off, is not among the days
    expect(withinWorkingHours(MIDNIGHT + 2 * 24 * HOUR + 10 * HOUR, hours)).toBe(false);
    expect(withinWorkingHours(MIDNIGHT + 3 * HOUR, undefined)).toBe(true);
    expect(withinWorkingHours(MIDNIGHT + 3 * HOUR, null)).toBe(true);
  });

  test("the working-hours rule: a day at least, each once, start before end, within one day", () => {
    const ok = { days: [1, 2], start: 540, end: 1020 };
    expect(workingHoursRule.safeParse(ok).success).toBe(true);
    const message = (h: unknown) => workingHoursRule.safeParse(h).error?.issues[0].message;
    expect(message({ ...ok, days: [] })).toBe("Choose at least one working day.");
    expect(message({ ...ok, days: [1, 1] })).toBe("Each day may be chosen once.");
    expect(message({ ...ok, days: [7] })).toBeDefined();
    expect(message({ ...ok, start: 600, end: 600 })).toBe(
      "The end time must be after the start time.",
    );
    expect(message({ ...ok, start: -1 })).toBeDefined();
    expect(message({ ...ok, end: 1441 })).toBeDefined();
    expect(message({ ...ok, start: 9.5 })).toBeDefined();
    expect(minuteOfDay("09:30")).toBe(570);
    expect(minuteOfDay("24:00")).toBeNaN();
    expect(minuteOfDay("")).toBeNaN();
  });

  test("two jobs clash when their times overlap, each for its own length", () => {
    const twoHours = busyOf(MIDNIGHT + 10 * HOUR, 120);
    expect(clashWith(MIDNIGHT + 11 * HOUR, 60, [twoHours])).toEqual(twoHours);
    expect(clashWith(MIDNIGHT + 12 * HOUR, 60, [twoHours])).toBeUndefined();
    // a four-hour job from 08:00 reaches into the one at 10:00
    expect(clashWith(MIDNIGHT + 8 * HOUR, 240, [twoHours])).toEqual(twoHours);
    expect(clashWith(MIDNIGHT + 8 * HOUR, 120, [twoHours])).toBeUndefined();
    // old bookings without a length count as two hours
    expect(busyOf(MIDNIGHT, undefined)).toEqual({ start: MIDNIGHT, end: MIDNIGHT + 2 * HOUR });
  });

  test("a job's length adds its services', rounded up to a half hour, within 30 min to 8 h", () => {
    expect(jobMinutesOf([{ category: "electrical" }])).toBe(120);
    expect(jobMinutesOf([{ category: "electrical", jobMinutes: 45 }])).toBe(60);
    expect(jobMinutesOf([{ category: "plumbing" }, { category: "plumbing" }])).toBe(180);
    expect(jobMinutesOf([{ category: "unknown" }])).toBe(120);
    expect(jobMinutesOf(Array(5).fill({ category: "painting" }))).toBe(480);
    expect(jobMinutesRule.safeParse(90).success).toBe(true);
    expect(jobMinutesRule.safeParse(45).error?.issues[0].message).toBe("Use whole half hours.");
    expect(jobMinutesRule.safeParse(0).success).toBe(false);
    expect(jobMinutesRule.safeParse(510).success).toBe(false);
  });

  describe("free slots", () => {
    // Thursday 2026-01-15, 08:10 in Kathmandu
    const now = MIDNIGHT + 8 * HOUR + 10 * 60_000;
    const hours = { days: [0, 1, 2, 3, 4, 5], start: 9 * 60, end: 17 * 60 };
    const clockOf = (ms: number) => clock(kathmanduMinuteOfDay(ms));

    test("every half hour on the Kathmandu clock, the whole job inside the working hours", () => {
      const slots = freeSlots({ now, hours, busy: [], jobMinutes: 120 });
      const today = slots.filter((s) => kathmanduDayStart(s) === MIDNIGHT).map(clockOf);
      // 09:00 is more than an hour ahead; a two-hour job must end by 17:00
      expect(today[0]).toBe("09:30");
      expect(today.at(-1)).toBe("15:00");
      expect(today).toHaveLength(12);
      expect(slots.every((s) => (s - MIDNIGHT) % (30 * 60_000) === 0)).toBe(true);
    });

    test("seven Kathmandu days, today first, leaving out days not worked (Saturday)", () => {
      const slots = freeSlots({ now, hours, busy: [], jobMinutes: 60 });
      const days = [...new Set(slots.map(kathmanduDayStart))];
      expect(days).toEqual(
        [0, 1, 3, 4, 5, 6].map((d) => MIDNIGHT + d * 24 * HOUR), // day 2 is Saturday
      );
      expect(Math.max(...slots)).toBeLessThan(MIDNIGHT + 7 * 24 * HOUR);
    });

    test("a day edge: late hours reach the last minute of the day; early hours open at midnight", () => {
      const late = { days: [4], start: 22 * 60, end: 24 * 60 };
      expect(freeSlots({ now, hours: late, busy: [], jobMinutes: 120 }).map(clockOf)).toEqual([
        "22:00",
      ]);
      const early = { days: [5], start: 0, end: 60 };
      expect(freeSlots({ now, hours: early, busy: [], jobMinutes: 30 })).toEqual([
        MIDNIGHT + 24 * HOUR,
        MIDNIGHT + 24 * HOUR + 30 * 60_000,
      ]);
    });

    test("times overlapping a taken job are left out, for the new job's length", () => {
      const taken = [busyOf(MIDNIGHT + 12 * HOUR, 60)];
      const today = (jobMinutes: number) =>
        freeSlots({ now, hours, busy: taken, jobMinutes, days: 1 }).map(clockOf);
      expect(today(60)).not.toContain("12:00");
      expect(today(60)).toContain("11:00");
      expect(today(60)).toContain("13:00");
      expect(today(120)).not.toContain("11:00");
      expect(today(120)).toContain("10:00");
    });

    test("no hours set: the suggested ones; a limit stops early", () => {
      const slots = freeSlots({ now, hours: null, busy: [], jobMinutes: 60, limit: 3 });
      expect(slots.map(clockOf)).toEqual(["09:30", "10:00", "10:30"]);
    });
  });

  test("steps open one hour before the booked time", () => {
    expect(tooEarlyForSteps(MIDNIGHT + 2 * HOUR, MIDNIGHT)).toBe(true);
    expect(tooEarlyForSteps(MIDNIGHT + HOUR, MIDNIGHT)).toBe(false);
  });
});
