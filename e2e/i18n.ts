import type { Locale } from "../convex/constants";
import { formatPaisaAmount } from "../convex/rules/money";
import { m } from "../src/i18n/paraglide/messages";
import { toDevanagariDigits } from "../src/lib/digits";

export { m, type Locale };

/** Both interface languages, for specs that run once in each. */
export const LANGUAGES: readonly Locale[] = ["en", "ne-NP"];

type Message<I> = (inputs: I, options: { locale: Locale }) => string;
/** A catalogue message without inputs (a label, a heading). */
export type PlainMessage = Message<Record<string, never>>;

/** A catalogue message in one language: what the app shows a reader of `locale`. */
export function say(locale: Locale, message: Message<Record<string, never>>): string;
export function say<I>(locale: Locale, message: Message<I>, inputs: I): string;
export function say<I>(locale: Locale, message: Message<I>, inputs?: I): string {
  return message(inputs ?? ({} as I), { locale });
}

/** The language a browser context with these options starts in (its navigator.languages). */
export function localeOf(options: { locale?: string } = {}): Locale {
  return options.locale?.toLowerCase().startsWith("ne") ? "ne-NP" : "en";
}

/** Paisa as the app writes them for a reader of `locale` ("Nrs. 1,350", "रु. १,३५०"). */
export function money(locale: Locale, paisa: number): string {
  const amount = formatPaisaAmount(paisa);
  return say(locale, m.money_nrs, {
    amount: locale === "ne-NP" ? toDevanagariDigits(amount) : amount,
  });
}
