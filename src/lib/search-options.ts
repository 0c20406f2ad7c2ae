import { CITIES } from "@convex/constants";
import { citiesNamedIn } from "@convex/rules/address";

/** Where the header search sends a result when nothing tells us the user's city: the map's default centre. */
export const DEFAULT_LOCATION = "Nepalgunj";

const LAST_CITY_KEY = "gharsewa.lastCity";

/** The city last chosen on the search page, kept on this device. */
export function rememberCity(name: string): void {
  try {
    localStorage.setItem(LAST_CITY_KEY, name);
  } catch {
    // storage may be unavailable (private mode): the header then falls back to the profile or default
  }
}

function lastCity(): string | null {
  try {
    const name = localStorage.getItem(LAST_CITY_KEY);
    return CITIES.some((c) => c.name === name) ? name : null;
  } catch {
    return null;
  }
}

/**
 * The city the header search opens in: the one last chosen on this device, else the user's own
 * (a professional's city, or the city their address names), else the default.
 */
export function searchCity(
  profile: { city?: string | null; address?: string | null } | null,
): string {
  const fromProfile =
    (profile?.city &&
      CITIES.find((c) => c.slug === profile.city || c.name === profile.city)?.name) ||
    (profile?.address
      ? CITIES.find((c) => c.slug === citiesNamedIn(profile.address!)[0])?.name
      : undefined);
  return lastCity() ?? fromProfile ?? DEFAULT_LOCATION;
}
