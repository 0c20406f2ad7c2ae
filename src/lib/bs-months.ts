/**
 * Bikram Sambat calendar months as UTC instants: where a BS month begins and ends at midnight in
 * Kathmandu, for periods such as the admin's revenue by BS month (rules/revenue.ts checks them).
 */
import NepaliDate from "nepali-date-converter";
import { getLocale, type Locale } from "@/i18n/paraglide/runtime";
import { kathmanduFields } from "@/lib/format";

/** Nepal keeps UTC+5:45 all year. */
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

function bsOf(ms: number): NepaliDate {
  const { year, month, day } = kathmanduFields(ms);
  // the converter reads local calendar fields: hand it a local date carrying Kathmandu's
  return new NepaliDate(new Date(year, month - 1, day));
}

/** The instant the BS month `monthsBack` before the one holding `ms` began (negative: after it). */
export function bsMonthStart(ms: number, monthsBack = 0): number {
  const bs = bsOf(ms);
  const index = bs.getYear() * 12 + bs.getMonth() - monthsBack;
  const { year, month, date } = new NepaliDate(Math.floor(index / 12), index % 12, 1).getAD();
  return Date.UTC(year, month, date) - KATHMANDU_OFFSET_MS;
}

/** The boundaries of the `n` BS months up to the current one: n + 1 instants, the last its end. */
export function bsMonthBounds(now: number, n: number): number[] {
  return Array.from({ length: n + 1 }, (_, i) => bsMonthStart(now, n - 1 - i));
}

/** "Mangsir 2083 BS" ("मंसिर २०८३" in Nepali): the BS month holding `ms`. */
export function formatBsMonth(ms: number, locale: Locale = getLocale()): string {
  const bs = bsOf(ms);
  return locale === "ne-NP" ? bs.format("MMMM YYYY", "np") : `${bs.format("MMMM YYYY")} BS`;
}
