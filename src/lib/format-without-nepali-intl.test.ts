import { afterAll, describe, expect, it } from "vitest";

// Chromium's ICU has no "ne" data: Intl formats for "ne-NP" fall back to the root locale
// (1,234,567 and "2026 M11 24"). The Nepali forms must not depend on it.
const { DateTimeFormat, NumberFormat } = Intl;
const rootFor = (locales?: string | readonly string[]) =>
  [locales ?? []].flat().some((tag) => tag.toLowerCase().startsWith("ne")) ? "und" : locales;
class RootDateTimeFormat extends DateTimeFormat {
  constructor(locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
    super(rootFor(locales), options);
  }
}
class RootNumberFormat extends NumberFormat {
  constructor(locales?: string | string[], options?: Intl.NumberFormatOptions) {
    super(rootFor(locales), options);
  }
}
Object.assign(Intl, { DateTimeFormat: RootDateTimeFormat, NumberFormat: RootNumberFormat });
afterAll(() => Object.assign(Intl, { DateTimeFormat, NumberFormat }));

const { formatDateTime, formatGregorianDate, formatKathmanduTime, formatWeekdays } =
  await import("@/lib/format");
const { formatNumber } = await import("@/lib/numbers");
const { formatNrs } = await import("@/lib/rupees");

describe("Nepali numbers and dates in a browser without Intl data for Nepali", () => {
  const newYearEvening = Date.UTC(2025, 0, 1, 18, 30);

  it("writes Devanagari digits with Nepali grouping", () => {
    expect(formatNrs(1234567, "ne-NP")).toBe("रु. १२,३४,५६७");
    expect(formatNumber(1234567.25, "ne-NP")).toBe("१२,३४,५६७.३");
    expect(formatNumber(42, "en")).toBe("42");
  });

  it("writes Gregorian dates and the time in Nepali words and digits", () => {
    expect(formatGregorianDate(newYearEvening, "ne-NP")).toBe("२०२५ जनवरी २");
    expect(formatKathmanduTime(newYearEvening, "ne-NP")).toBe("१२:१५ पूर्वाह्न");
    expect(formatKathmanduTime(Date.UTC(2025, 0, 1, 9, 0), "ne-NP")).toBe("२:४५ अपराह्न");
    expect(formatDateTime(newYearEvening, "ne-NP")).toBe(
      "१८ पौष २०८१, बिहिबार (२०२५ जनवरी २), १२:१५ पूर्वाह्न",
    );
    expect(formatDateTime(newYearEvening, "ne-NP")).not.toMatch(/[0-9A-Za-z]/);
  });

  it("names the working days in Nepali", () => {
    expect(formatWeekdays([6, 0, 1], "ne-NP")).toBe("आइत, सोम, शनि");
    expect(formatWeekdays([0, 1, 2, 3, 4, 5, 6], "en")).toBe("Sun, Mon, Tue, Wed, Thu, Fri, Sat");
  });
});
