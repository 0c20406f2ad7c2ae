import NepaliDate from "nepali-date-converter";
import { expect, test } from "vitest";
import { bsYear } from "@/lib/bs-year";

const DAY = 86_400_000;

test("gives the converter's Bikram Sambat year on every day of 2020-2033 but New Year's edge days", () => {
  const wrong: string[] = [];
  for (let ms = Date.UTC(2020, 0, 1, 6); ms < Date.UTC(2034, 0, 1); ms += DAY) {
    const day = new Date(ms);
    if (day.getUTCMonth() === 3 && day.getUTCDate() >= 13 && day.getUTCDate() <= 15) continue;
    const expected = new NepaliDate(
      new Date(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()),
    ).getYear();
    if (bsYear(ms) !== expected) wrong.push(day.toISOString().slice(0, 10));
  }
  expect(wrong).toEqual([]);
});

test("turns at midnight in Kathmandu, not in UTC", () => {
  // 14 April 2026, 00:10 in Kathmandu is still 13 April in UTC
  expect(bsYear(Date.UTC(2026, 3, 13, 18, 25))).toBe(2083);
  expect(bsYear(Date.UTC(2026, 3, 13, 18, 5))).toBe(2082);
});
