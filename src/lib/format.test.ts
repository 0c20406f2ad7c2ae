import { describe, expect, it } from "vitest";
import {
  formatBsDate,
  formatDateTime,
  formatGregorianDate,
  formatKathmanduTime,
  withCity,
  fromKathmanduInputValue,
  toKathmanduInputValue,
} from "@/lib/format";
import { formatNrs } from "@/lib/rupees";
import { isNepaliPhone } from "@convex/rules/profile";

describe("money", () => {
  it("writes Nrs. with Nepali digit grouping", () => {
    expect(formatNrs(0)).toBe("Nrs. 0");
    expect(formatNrs(1500)).toBe("Nrs. 1,500");
    expect(formatNrs(150000)).toBe("Nrs. 1,50,000");
  });
});

describe("Kathmandu time and Bikram Sambat", () => {
  // 2025-01-01 18:30 UTC is 2025-01-02 00:15 in Kathmandu (UTC+5:45): the calendar day changes.
  const newYearEvening = Date.UTC(2025, 0, 1, 18, 30);

  it("shows the wall clock of Kathmandu, not the browser's zone", () => {
    expect(formatKathmanduTime(Date.UTC(2025, 0, 1, 6, 15))).toBe("12:00 PM");
    expect(formatKathmanduTime(newYearEvening)).toBe("12:15 AM");
  });

  it("converts the Kathmandu calendar day to BS", () => {
    // 1 Jan 2025 = 17 Poush 2081 BS; 2 Jan 2025 = 18 Poush 2081 BS.
    expect(formatBsDate(Date.UTC(2025, 0, 1, 6, 0))).toBe("17 Poush 2081 BS");
    expect(formatBsDate(newYearEvening)).toBe("18 Poush 2081 BS");
  });

  it("puts BS beside the Gregorian date", () => {
    expect(formatDateTime(newYearEvening)).toBe("2 Jan 2025 (18 Poush 2081 BS), 12:15 AM");
  });

  it("round-trips datetime-local values as Kathmandu time", () => {
    const ms = Date.UTC(2025, 3, 14, 4, 15); // 10:00 in Kathmandu
    expect(toKathmanduInputValue(ms)).toBe("2025-04-14T10:00");
    expect(fromKathmanduInputValue("2025-04-14T10:00")).toBe(ms);
    expect(fromKathmanduInputValue("not a date")).toBeNaN();
  });
});

describe("names and phones", () => {
  it("accepts Nepali mobiles and landlines only", () => {
    for (const ok of ["9841234567", "9712345678", "+977 9801234567", "01-4123456", "081-520123"]) {
      expect(isNepaliPhone(ok), ok).toBe(true);
    }
    for (const bad of ["12345", "9612345678", "98412345", "984123456789", "abc"]) {
      expect(isNepaliPhone(bad), bad).toBe(false);
    }
  });
});

describe("withCity", () => {
  it("appends the city unless the address already names it", () => {
    expect(withCity("Ward 4, Tribhuvan Chowk", "Nepalgunj")).toBe(
      "Ward 4, Tribhuvan Chowk, Nepalgunj",
    );
    expect(withCity("Ward 4, Tribhuvan Chowk, Nepalgunj", "Nepalgunj")).toBe(
      "Ward 4, Tribhuvan Chowk, Nepalgunj",
    );
  });
});

describe("in Nepali", () => {
  const newYearEvening = Date.UTC(2025, 0, 1, 18, 30);

  it("writes money with Devanagari digits, Nepali grouping and रु.", () => {
    expect(formatNrs(1234567, "ne-NP")).toBe("रु. १२,३४,५६७");
  });

  it("puts Bikram Sambat first, with Nepali month and weekday names", () => {
    expect(formatBsDate(newYearEvening, "ne-NP")).toBe("१८ पौष २०८१, बिहिबार");
    expect(formatDateTime(newYearEvening, "ne-NP")).toMatch(
      /^१८ पौष २०८१, बिहिबार \(.*२०२५.*\), १२:१५/,
    );
  });

  it("writes Gregorian dates and clock times in Nepali without the browser's Nepali data", () => {
    expect(formatGregorianDate(newYearEvening, "ne-NP")).toBe("२०२५ जनवरी २");
    expect(formatKathmanduTime(newYearEvening, "ne-NP")).toBe("१२:१५ पूर्वाह्न");
    expect(formatKathmanduTime(newYearEvening + 13 * 3_600_000, "ne-NP")).toBe("१:१५ अपराह्न");
  });
});
