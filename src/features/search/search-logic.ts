import { formatAmount, formatNrs } from "@/lib/format";
import { CITIES, SPECIALTIES, type SpecialtySlug } from "@convex/constants";

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
    price: first ? formatNrs(first.price) : "Price not available",
    guarantee: details?.serviceWarranty || "N/A",
    service: details?.name || "N/A",
    location: first?.cityName ?? "Location not available",
    description: details?.description || "N/A",
    serviceCharge: first ? `Nrs: ${formatAmount(first.price)}` : "N/A",
    totalBookings:
      details && typeof details.totalBookings === "number"
        ? String(details.totalBookings)
        : "Not available",
  };
}
