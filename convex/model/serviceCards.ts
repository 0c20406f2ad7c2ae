import type { QueryCtx } from "../_generated/server";
import { CITIES, SPECIALTIES, type CitySlug } from "../validators";
import { listCategories } from "./catalog";
import { hasBookableIn } from "./professionals";

/**
 * The services grid: each category with the cities where a customer can book one of its
 * professionals now. The spec's listed categories always get a card (it says when nobody is
 * bookable yet); any other category gets one as soon as someone is bookable in it (Jyotish).
 */
export async function serviceCards(ctx: QueryCtx) {
  const cards = await Promise.all(
    (await listCategories(ctx)).map(async ({ listed, ...category }) => {
      const specialties = SPECIALTIES.filter((s) => s.category === category.slug);
      const bookable = await Promise.all(
        CITIES.map(async (city) => {
          for (const specialty of specialties)
            if (await hasBookableIn(ctx, specialty.slug, city.slug)) return true;
          return false;
        }),
      );
      const cities: CitySlug[] = CITIES.filter((_, i) => bookable[i]).map((c) => c.slug);
      return { listed, card: { ...category, cities } };
    }),
  );
  return cards.filter((c) => c.listed || c.card.cities.length > 0).map((c) => c.card);
}
