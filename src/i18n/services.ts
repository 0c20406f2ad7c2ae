import {
  SERVICE_DESCRIPTIONS_NE,
  SERVICE_NAMES_NE,
  WARRANTIES_NE,
} from "@convex/localServiceNames";
import { nepaliOr } from "@/i18n/categories";
import { getLocale, type Locale } from "@/i18n/paraglide/runtime";

/** A catalogue service's name in the reader's language (the English name when it has no other). */
export function localServiceName(name: string, locale: Locale = getLocale()): string {
  return nepaliOr(SERVICE_NAMES_NE[name], name, locale);
}

/** A catalogue service's description in the reader's language, from its English name and text. */
export function localServiceDescription(
  name: string,
  englishDescription: string,
  locale: Locale = getLocale(),
): string {
  return nepaliOr(SERVICE_DESCRIPTIONS_NE[name], englishDescription, locale);
}

/** A service's warranty ("30 days") in the reader's language. */
export function localWarranty(warranty: string, locale: Locale = getLocale()): string {
  return nepaliOr(WARRANTIES_NE[warranty], warranty, locale);
}
