import { describe, expect, test } from "vitest";
import {
  JOB_SLOT_MS,
  clashWith,
  clock,
  kathmanduMinuteOfDay,
  tooEarlyForSteps,
  validWorkingHours,
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

  test("working hours: [start, end), none set means any time", () => {
    const hours = { start: 7 * 60, end: 19 * 60 };
    expect(withinWorkingHours(MIDNIGHT + 7 * HOUR, hours)).toBe(true);
    expect(withinWorkingHours(MIDNIGHT + 19 * HOUR, hours)).toBe(false);
    expect(withinWorkingHours(MIDNIGHT + 6.99 * HOUR, hours)).toBe(false);
    expect(withinWorkingHours(MIDNIGHT + 3 * HOUR, undefined)).toBe(true);
    expect(validWorkingHours(hours)).toBe(true);
    expect(validWorkingHours({ start: 600, end: 600 })).toBe(false);
    expect(validWorkingHours({ start: -1, end: 600 })).toBe(false);
    expect(validWorkingHours({ start: 0, end: 1441 })).toBe(false);
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
