import { m } from "@/i18n/paraglide/messages";
import { getLocale, type Locale } from "@/i18n/paraglide/runtime";
import { toDevanagariDigits } from "@/lib/digits";
import { formatAmount as latinAmount, formatPaisaAmount } from "@convex/rules/money";

// Numbers and money without the calendar (lib/format.ts adds dates), light enough for the header.
// Nepal's grouping (en-IN groups as 12,34,567), in Devanagari digits for Nepali. The digits are
// swapped here rather than asked of Intl's "ne-NP": browsers whose ICU lacks Nepali data (some
// Chromium builds) would silently give Latin digits and Western grouping.
const grouped = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 1 });

/**
 * "1,500" in English (convex/rules/money.ts, shared with the server's texts), "१,५००" in Nepali —
 * digit grouping as used in Nepal (lakh style).
 */
export function formatAmount(amount: number, locale: Locale = getLocale()): string {
  return formatDigits(latinAmount(amount), locale);
}

/** A count or other plain number in the reader's digits. */
export function formatNumber(value: number, locale: Locale = getLocale()): string {
  return formatDigits(grouped.format(value), locale);
}

/** Digits inside a text (a phone number, a code) in the reader's script. */
export function formatDigits(text: string, locale: Locale = getLocale()): string {
  return locale === "ne-NP" ? toDevanagariDigits(text) : text;
}

/** Integer Nepali rupees: "Nrs. 1,500" in English, "रु. १,५००" in Nepali. */
export function formatNrs(amount: number, locale: Locale = getLocale()): string {
  return m.money_nrs({ amount: formatAmount(amount, locale) }, { locale });
}

/** Paisa as rupees: "Nrs. 1,500", "Nrs. 1,500.50" in English, "रु. १,५००.५०" in Nepali. */
export function formatPaisa(paisa: number, locale: Locale = getLocale()): string {
  return m.money_nrs({ amount: formatDigits(formatPaisaAmount(paisa), locale) }, { locale });
}
