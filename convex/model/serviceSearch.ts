import type { QueryCtx } from "../_generated/server";
import type { CitySlug } from "../validators";
import { parseSearch, searchServices } from "./catalog";
import { serviceCards } from "./serviceCards";

export type SearchResult = {
  category: string;
  categoryName: string;
  /** null: the whole category ("Electrician in Pokhara"). */
  serviceName: string | null;
  /** The city the words named; null: the page picks the user's. */
  city: CitySlug | null;
};

const MAX_RESULTS = 10;

/**
 * The header search: service words and a city, in English, Nepali or romanised ("electrician
 * pokhara", "पोखरा", "tap leak"). A city alone lists the services bookable there.
 */
export async function headerSearch(ctx: QueryCtx, text: string): Promise<SearchResult[]> {
  const { city, words } = parseSearch(text);
  if (words.length > 0) return (await searchServices(ctx, words)).map((r) => ({ ...r, city }));
  if (city === null) return [];
  return (await serviceCards(ctx))
    .filter((card) => card.cities.includes(city))
    .slice(0, MAX_RESULTS)
    .map((card) => ({ category: card.slug, categoryName: card.name, serviceName: null, city }));
}
