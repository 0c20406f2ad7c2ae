import { describe, expect, test } from "vitest";
import {
  JOB_SLOT_MS,
  clashWith,
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

  test("two jobs closer than a job slot clash", () => {
    expect(clashWith(MIDNIGHT, [MIDNIGHT + JOB_SLOT_MS - 1])).toBe(MIDNIGHT + JOB_SLOT_MS - 1);
    expect(clashWith(MIDNIGHT, [MIDNIGHT + JOB_SLOT_MS, MIDNIGHT - JOB_SLOT_MS])).toBeUndefined();
  });

  test("steps open one hour before the booked time", () => {
    expect(tooEarlyForSteps(MIDNIGHT + 2 * HOUR, MIDNIGHT)).toBe(true);
    expect(tooEarlyForSteps(MIDNIGHT + HOUR, MIDNIGHT)).toBe(false);
  });
});
