import { getLocale, type Locale } from "@/i18n/paraglide/runtime";
import { toDevanagariDigits } from "@/lib/digits";
import { formatAmount } from "@convex/rules/money";

// Numbers without money (lib/rupees.ts) or the calendar (lib/format.ts adds dates), light enough for
// the header. Nepal's grouping (12,34,567, as rupees are written), in Devanagari digits for Nepali. Not
// Intl's: browsers whose ICU lacks Nepali data (some Chromium builds) silently give Latin digits and
// Western grouping, and a first Intl.NumberFormat loads its locale's data (~10 ms of a laptop core,
// held by every page's first script).

/** A count or other plain number, to one decimal, in the reader's digits. */
export function formatNumber(value: number, locale: Locale = getLocale()): string {
  const tenths = Math.round(Math.abs(value) * 10);
  const sign = value < 0 && tenths > 0 ? "-" : "";
  const decimal = tenths % 10 === 0 ? "" : `.${tenths % 10}`;
  return formatDigits(`${sign}${formatAmount(Math.floor(tenths / 10))}${decimal}`, locale);
}

/** Digits inside a text (a phone number, a code) in the reader's script. */
export function formatDigits(text: string, locale: Locale = getLocale()): string {
  return locale === "ne-NP" ? toDevanagariDigits(text) : text;
}
