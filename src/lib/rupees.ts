import { m } from "@/i18n/paraglide/messages";
import { getLocale, type Locale } from "@/i18n/paraglide/runtime";
import { formatDigits } from "@/lib/numbers";
import { formatAmount as latinAmount, formatPaisaAmount } from "@convex/rules/money";

// Rupees in the reader's digits; apart from lib/numbers.ts so that pages without prices (the landing)
// do not load the money rules and messages.

/**
 * "1,500" in English (convex/rules/money.ts, shared with the server's texts), "१,५००" in Nepali —
 * digit grouping as used in Nepal (lakh style).
 */
export function formatAmount(amount: number, locale: Locale = getLocale()): string {
  return formatDigits(latinAmount(amount), locale);
}

/** Integer Nepali rupees: "Nrs. 1,500" in English, "रु. १,५००" in Nepali. */
export function formatNrs(amount: number, locale: Locale = getLocale()): string {
  return m.money_nrs({ amount: formatAmount(amount, locale) }, { locale });
}

/** Paisa as rupees: "Nrs. 1,500", "Nrs. 1,500.50" in English, "रु. १,५००.५०" in Nepali. */
export function formatPaisa(paisa: number, locale: Locale = getLocale()): string {
  return m.money_nrs({ amount: formatDigits(formatPaisaAmount(paisa), locale) }, { locale });
}
