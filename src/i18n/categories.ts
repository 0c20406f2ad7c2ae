import { CATEGORY_DESCRIPTIONS_NE, CATEGORY_NAMES_NE } from "@convex/localCategoryNames";
import { SPECIALTIES } from "@convex/constants";
import { getLocale, type Locale } from "@/i18n/paraglide/runtime";

/** The Nepali text for a Nepali reader when there is one, else the English. */
export function nepaliOr(nepali: string | undefined, english: string, locale: Locale): string {
  return locale === "ne-NP" ? (nepali ?? english) : english;
}

/** A specialty as the landing search and sign-up list it ("Electrician", "Painting"), in the reader's language. */
export function localLandingService(name: string, locale: Locale = getLocale()): string {
  if (locale !== "ne-NP") return name;
  const key = name.toLowerCase();
  const specialty = SPECIALTIES.find(
    (s) =>
      s.slug === key ||
      s.name.toLowerCase() === key ||
      s.aliases.some((a: string) => a.toLowerCase() === key),
  );
  return CATEGORY_NAMES_NE[specialty?.category ?? key]?.name ?? name;
}

/** A category's (or specialty's) name in the reader's language, from its slug and English name. */
export function localCategoryName(
  slug: string,
  englishName: string,
  locale: Locale = getLocale(),
): string {
  if (locale !== "ne-NP") return englishName;
  const category = SPECIALTIES.find((s) => s.slug === slug)?.category ?? slug;
  return CATEGORY_NAMES_NE[category]?.name ?? englishName;
}

/** A category's one-line description in the reader's language, from its slug and English text. */
export function localCategoryDescription(
  slug: string,
  englishDescription: string,
  locale: Locale = getLocale(),
): string {
  return nepaliOr(CATEGORY_DESCRIPTIONS_NE[slug], englishDescription, locale);
}
