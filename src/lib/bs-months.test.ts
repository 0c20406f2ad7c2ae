import { describe, expect, test } from "vitest";
import { bsMonthBounds, bsMonthStart, formatBsMonth } from "@/lib/bs-months";

/** Midnight in Kathmandu on a Gregorian date, as a UTC instant. */
const kathmanduMidnight = (y: number, m: number, d: number) =>
  Date.UTC(y, m - 1, d) - (5 * 60 + 45) * 60_000;

describe("Bikram Sambat months", () => {
  test("1 Mangsir 2083 is 17 Nov 2026: the month holding 27 Nov begins then, at Kathmandu midnight", () => {
    const now = kathmanduMidnight(2026, 11, 27) + 22 * 3600_000;
    expect(bsMonthStart(now)).toBe(kathmanduMidnight(2026, 11, 17));
    expect(formatBsMonth(now, "en")).toBe("Mangsir 2083 BS");
    expect(formatBsMonth(now, "ne-NP")).toBe("मंसिर २०८३");
  });

  test("a year's bounds cross the BS new year (1 Baisakh, mid-April) and increase", () => {
    const now = kathmanduMidnight(2026, 11, 27);
    const bounds = bsMonthBounds(now, 12);
    expect(bounds).toHaveLength(13);
    expect(bounds.every((b, i) => i === 0 || b > bounds[i - 1])).toBe(true);
    // 1 Baisakh 2083 = 14 Apr 2026
    expect(bounds).toContain(kathmanduMidnight(2026, 4, 14));
    expect(bounds[12]).toBe(bsMonthStart(now, -1));
    expect(bounds[12] - bounds[0]).toBeLessThan(400 * 86_400_000);
  });

  test("midnight in Kathmandu is the first instant of a month, a minute before is the month before", () => {
    const start = kathmanduMidnight(2026, 11, 17);
    expect(bsMonthStart(start)).toBe(start);
    expect(bsMonthStart(start - 60_000)).toBeLessThan(start);
  });
});
