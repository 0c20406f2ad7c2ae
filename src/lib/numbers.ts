import { getLocale, type Locale } from "@/i18n/paraglide/runtime";
import { toDevanagariDigits } from "@/lib/digits";

// Numbers without money (lib/rupees.ts) or the calendar (lib/format.ts adds dates), light enough for
// the header. Nepal's grouping (en-IN groups as 12,34,567), in Devanagari digits for Nepali. The digits are
// swapped here rather than asked of Intl's "ne-NP": browsers whose ICU lacks Nepali data (some
// Chromium builds) would silently give Latin digits and Western grouping.
const grouped = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 1 });

/** A count or other plain number in the reader's digits. */
export function formatNumber(value: number, locale: Locale = getLocale()): string {
  return formatDigits(grouped.format(value), locale);
}

/** Digits inside a text (a phone number, a code) in the reader's script. */
export function formatDigits(text: string, locale: Locale = getLocale()): string {
  return locale === "ne-NP" ? toDevanagariDigits(text) : text;
}
