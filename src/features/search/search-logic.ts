import { formatAmount, formatNrs } from "@/lib/rupees";
import { CITIES, SPECIALTIES, type SpecialtySlug } from "@convex/constants";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localServiceDescription, localServiceName, localWarranty } from "@/i18n/services";
import { formatNumber } from "@/lib/numbers";

/** Spec §2: the category is derived from serviceName; other values are used as given. */
const SPEC_CATEGORY: Record<string, string> = {
  Electrician: "electrical",
  Plumber: "plumbing",
  Carpenter: "carpentry",
  Painter: "painting",
};

export function categoryFromServiceName(serviceName: string): string {
  return SPEC_CATEGORY[serviceName] ?? serviceName;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The professionals' specialty behind a category or service label ("electrical", "Painting", "Manson"). */
export function specialtyFor(categoryOrName: string): SpecialtySlug | undefined {
  const key = norm(categoryOrName);
  if (!key) return undefined;
  return SPECIALTIES.find((s) =>
    [s.slug, s.name, s.category, ...s.aliases].some((k) => norm(k) === key),
  )?.slug;
}

export function cityFor(location: string): (typeof CITIES)[number] | undefined {
  const key = norm(location);
  return CITIES.find((c) => c.slug === key || norm(c.name) === key);
}

export type ServiceDetails = {
  name: string;
  description: string;
  serviceWarranty: string;
  availableCities: { name: string; cityName: string; price: number }[];
  totalBookings: number;
} | null;

/** The details block's texts with the spec's fallbacks. */
export function detailsView(details: ServiceDetails) {
  const first = details?.availableCities[0];
  return {
    price: first ? formatNrs(first.price) : m.sd_price_na(),
    guarantee: details?.serviceWarranty ? localWarranty(details.serviceWarranty) : m.sd_na(),
    service: details?.name ? localServiceName(details.name) : m.sd_na(),
    location: first ? localCityName(first.name) : m.sd_location_na(),
    description: details?.description
      ? localServiceDescription(details.name, details.description)
      : m.sd_na(),
    serviceCharge: first ? m.money_nrs({ amount: formatAmount(first.price) }) : m.sd_na(),
    totalBookings:
      details && typeof details.totalBookings === "number"
        ? formatNumber(details.totalBookings)
        : m.sd_not_available(),
  };
}
