import { CITIES } from "@convex/constants";
import { getLocale, type Locale } from "@/i18n/paraglide/runtime";

/** A city's name in the reader's language (Kathmandu / काठमाडौं), from its slug or English name. */
export function localCityName(cityOrSlug: string, locale: Locale = getLocale()): string {
  const key = cityOrSlug.toLowerCase();
  const city = CITIES.find((c) => c.slug === key || c.name.toLowerCase() === key);
  if (!city) return cityOrSlug;
  return locale === "ne-NP" ? city.nameNe : city.name;
}
