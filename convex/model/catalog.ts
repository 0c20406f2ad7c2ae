import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { CITIES, SPECIALTIES, type CitySlug, type SpecialtySlug } from "../validators";
import { cityName } from "../constants";
import { CATALOG, cityPrices } from "./catalogData";
import { CATEGORY_NAMES_NE } from "../localCategoryNames";
import { SERVICE_NAMES_NE } from "../localServiceNames";
import { jobMinutesRule } from "../rules/schedule";
import { fail, firstIssue } from "./errors";

export { cityName };

/** Lower-case letters and digits only, so "CCTV-camera-fitting" and "cctv camera fitting" meet. */
/**
 * A search key: Latin letters and digits, and Devanagari letters with long and short vowels,
 * chandrabindu and anusvara folded together (people write बिजुली and बिजुलि, काठमाडौं and काठमाडौँ).
 */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFC")
    .replace(/[^a-z0-9\p{Script=Devanagari}]|[।॥]/gu, "")
    .replace(/ी/g, "ि")
    .replace(/ू/g, "ु")
    .replace(/ँ/g, "ं");
}

const CATEGORY_BY_KEY = new Map<string, string>();
for (const category of CATALOG) {
  for (const key of [category.slug, category.name, ...category.aliases]) {
    CATEGORY_BY_KEY.set(normalize(key), category.slug);
  }
}
for (const s of SPECIALTIES) {
  for (const key of [s.slug, s.name, ...s.aliases]) {
    if (!CATEGORY_BY_KEY.has(normalize(key))) CATEGORY_BY_KEY.set(normalize(key), s.category);
  }
}
for (const [slug, nepali] of Object.entries(CATEGORY_NAMES_NE)) {
  for (const key of [nepali.name, ...nepali.synonyms]) {
    if (!CATEGORY_BY_KEY.has(normalize(key))) CATEGORY_BY_KEY.set(normalize(key), slug);
  }
}

/** A category slug from anything the spec uses for it (slug, display name, specialty, legacy spelling). */
export function resolveCategory(input: string): string | null {
  return CATEGORY_BY_KEY.get(normalize(input)) ?? null;
}

export function categoryName(slug: string): string {
  return CATALOG.find((c) => c.slug === slug)?.name ?? slug;
}

export function specialtyCategory(specialty: SpecialtySlug): string {
  return SPECIALTIES.find((s) => s.slug === specialty)!.category;
}

export function specialtyName(specialty: SpecialtySlug): string {
  return SPECIALTIES.find((s) => s.slug === specialty)?.name ?? specialty;
}

/** A city slug from its slug or display name, any case. */
export function resolveCity(input: string): CitySlug | null {
  const key = normalize(input);
  return (
    CITIES.find((c) => c.slug === key || normalize(c.name) === key || normalize(c.nameNe) === key)
      ?.slug ?? null
  );
}

/** The catalogue price of a service in a city, or null where it is not offered. */
export function priceIn(service: Doc<"services">, city: CitySlug): number | null {
  return service.availableCities.find((c) => c.name === city)?.price ?? null;
}

const LISTED = CATALOG.filter((c) => c.listed).map((c) => c.slug);
/** Upper bound on catalogue rows, so every read below is bounded. */
const MAX_CATEGORIES = 50;
const MAX_SERVICES_PER_CATEGORY = 100;
const MAX_SERVICES = 1000;

/** Every category in the grid's order; `listed` ones always get a card (model/serviceCards.ts). */
export async function listCategories(ctx: QueryCtx) {
  const rows = await ctx.db.query("serviceCategories").withIndex("by_slug").take(MAX_CATEGORIES);
  return rows
    .sort((a, b) => a.order - b.order)
    .map((c) => ({
      slug: c.slug,
      name: c.name,
      description: c.description,
      listed: LISTED.includes(c.slug),
    }));
}

export async function servicesOf(ctx: QueryCtx, category: string) {
  return await ctx.db
    .query("services")
    .withIndex("by_category_and_name", (q) => q.eq("category", category))
    .take(MAX_SERVICES_PER_CATEGORY);
}

export async function serviceNames(ctx: QueryCtx, categoryInput: string): Promise<string[]> {
  const category = resolveCategory(categoryInput);
  if (category === null) return [];
  return (await servicesOf(ctx, category)).map((s) => s.name);
}

export type ServiceDetails = {
  _id: Doc<"services">["_id"];
  name: string;
  category: string;
  description: string;
  serviceWarranty: string;
  availableCities: { name: CitySlug; cityName: string; price: number }[];
  totalBookings: number;
};

/**
 * One service as the search page shows it; `availableCities` holds just the requested city,
 * so the page's "first available city" is that city. Null when unknown or not offered there.
 */
export async function serviceDetails(
  ctx: QueryCtx,
  args: { category: string; serviceName: string; location: string },
): Promise<ServiceDetails | null> {
  const category = resolveCategory(args.category);
  const city = resolveCity(args.location);
  if (category === null || city === null) return null;
  const service = await ctx.db
    .query("services")
    .withIndex("by_category_and_name", (q) =>
      q.eq("category", category).eq("name", args.serviceName.trim()),
    )
    .unique();
  if (service === null) return null;
  const price = priceIn(service, city);
  if (price === null) return null;
  return {
    _id: service._id,
    name: service.name,
    category: service.category,
    description: service.description,
    serviceWarranty: service.serviceWarranty,
    availableCities: [{ name: city, cityName: cityName(city), price }],
    totalBookings: service.totalBookings,
  };
}

/** What people also call the cities (romanised spellings, the municipality's own name). */
const CITY_ALIASES: Partial<Record<CitySlug, string[]>> = {
  nepalgunj: ["nepalganj", "nepalgunja"],
  kathmandu: ["ktm", "kathmandou"],
  dhangadi: ["dhangadhi", "धनगढि"],
  surkhet: ["birendranagar", "वीरेन्द्रनगर", "बीरेन्द्रनगर"],
  mahendranagar: ["bhimdatta", "भीमदत्त"],
};
const CITY_KEYS: [string, CitySlug][] = CITIES.flatMap((c) =>
  [c.slug, c.name, c.nameNe, ...(CITY_ALIASES[c.slug] ?? [])].map((key): [string, CitySlug] => [
    normalize(key),
    c.slug,
  ]),
);
/** Nepali case endings a city name may carry: पोखरामा, काठमाडौंको. */
const MAX_SUFFIX = 3;

/** The city a typed word names ("pokhara", "पोखरा", "पोखरामा"), or null. */
function cityOfWord(word: string): CitySlug | null {
  for (const [key, slug] of CITY_KEYS)
    if (word === key || (word.startsWith(key) && word.length - key.length <= MAX_SUFFIX))
      return slug;
  return null;
}

/** A header search split into the city it names (the first, if any) and the other words. */
export function parseSearch(text: string): { city: CitySlug | null; words: string[] } {
  let city: CitySlug | null = null;
  const words: string[] = [];
  for (const word of text.toLowerCase().split(/\s+/).map(normalize).filter(Boolean)) {
    const named = cityOfWord(word);
    if (named === null) words.push(word);
    else city ??= named;
  }
  return { city, words };
}

const MAX_RESULTS = 10;

/**
 * Header search: the services whose name, category or specialty match the most of the words typed
 * (all of them when some service has all), in English or Nepali (names and common synonyms of
 * convex/localCategoryNames.ts): "tap leak" finds the services that mention either when none has both.
 */
export async function searchServices(ctx: QueryCtx, words: string[]) {
  if (words.length === 0) return [];
  const services = await ctx.db
    .query("services")
    .withIndex("by_category_and_name")
    .take(MAX_SERVICES);
  const haystack = (s: Doc<"services">) => {
    const specialties = SPECIALTIES.filter((sp) => sp.category === s.category).flatMap((sp) => [
      sp.name,
      ...sp.aliases,
    ]);
    const aliases = CATALOG.find((c) => c.slug === s.category)?.aliases ?? [];
    const nepali = CATEGORY_NAMES_NE[s.category];
    return normalize(
      [
        s.name,
        categoryName(s.category),
        ...specialties,
        ...aliases,
        SERVICE_NAMES_NE[s.name] ?? "",
        ...(nepali ? [nepali.name, ...nepali.synonyms] : []),
      ].join(" "),
    );
  };
  const scored = services.map((s) => {
    const text = haystack(s);
    return { s, score: words.filter((w) => text.includes(w)).length };
  });
  const best = Math.max(0, ...scored.map((x) => x.score));
  if (best === 0) return [];
  return scored
    .filter((x) => x.score === best)
    .slice(0, MAX_RESULTS)
    .map(({ s }) => ({
      category: s.category,
      categoryName: categoryName(s.category),
      serviceName: s.name,
    }));
}

export async function tileMarble(ctx: QueryCtx) {
  const services = await servicesOf(ctx, "tile-marble");
  const order = CATALOG.find((c) => c.slug === "tile-marble")!.services.map((s) => s.name);
  return services
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
    .map((s) => ({ name: s.name, price: s.availableCities[0]?.price ?? 0 }));
}

/** Idempotent: inserts missing rows, refreshes copy and prices, never resets totalBookings. */
export async function upsertCatalog(ctx: MutationCtx) {
  let inserted = 0;
  for (const [order, category] of CATALOG.entries()) {
    const fields = {
      slug: category.slug,
      name: category.name,
      description: category.description,
      cities: category.cities,
      order,
    };
    const existing = await ctx.db
      .query("serviceCategories")
      .withIndex("by_slug", (q) => q.eq("slug", category.slug))
      .unique();
    if (existing === null) {
      await ctx.db.insert("serviceCategories", fields);
      inserted++;
    } else {
      await ctx.db.patch("serviceCategories", existing._id, fields);
    }
    for (const service of category.services) {
      const serviceFields = {
        category: category.slug,
        name: service.name,
        description: service.description,
        serviceWarranty: service.serviceWarranty,
        availableCities: cityPrices(service),
      };
      const row = await ctx.db
        .query("services")
        .withIndex("by_category_and_name", (q) =>
          q.eq("category", category.slug).eq("name", service.name),
        )
        .unique();
      if (row === null) {
        await ctx.db.insert("services", { ...serviceFields, totalBookings: 0 });
        inserted++;
      } else {
        await ctx.db.patch("services", row._id, serviceFields);
      }
    }
  }
  return { inserted };
}

/** A service's own job length, checked by rules/schedule.ts jobMinutesRule; null returns to the category's. */
export async function setJobMinutes(
  ctx: MutationCtx,
  serviceId: Id<"services">,
  minutes: number | null,
): Promise<void> {
  const service = await ctx.db.get("services", serviceId);
  if (service === null) fail("NOT_FOUND", "This service was not found.");
  if (minutes !== null) {
    const parsed = jobMinutesRule.safeParse(minutes);
    if (!parsed.success) fail("INVALID_INPUT", firstIssue(parsed.error));
  }
  await ctx.db.patch("services", serviceId, { jobMinutes: minutes ?? undefined });
}
