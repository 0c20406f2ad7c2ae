import { useEffect, useState } from "react";
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

/** The listed city nearest a point (by straight-line degrees: the cities are far apart). */
export function nearestCity(lat: number, lng: number): string {
  const distance = (c: (typeof CITIES)[number]) => (c.lat - lat) ** 2 + (c.lng - lng) ** 2;
  return CITIES.reduce((a, b) => (distance(b) < distance(a) ? b : a)).name;
}

const POSITION_MAX_AGE_MS = 30 * 60_000;
const POSITION_TIMEOUT_MS = 5_000;

/**
 * The city nearest this device, when the site may already read its position (never asks: a
 * search is no reason for a permission prompt); null until known or when it may not.
 */
export function useNearestCity(): string | null {
  const [city, setCity] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    if (!navigator.permissions || !navigator.geolocation) return;
    navigator.permissions.query({ name: "geolocation" }).then(
      (status) => {
        if (!active || status.state !== "granted") return;
        navigator.geolocation.getCurrentPosition(
          (p) => active && setCity(nearestCity(p.coords.latitude, p.coords.longitude)),
          () => {},
          { maximumAge: POSITION_MAX_AGE_MS, timeout: POSITION_TIMEOUT_MS },
        );
      },
      () => {},
    );
    return () => {
      active = false;
    };
  }, []);
  return city;
}

/**
 * The city the header search opens in: the one last chosen on this device, else the user's own
 * (a professional's city, or the city their address names), else the one nearest the device, else
 * the default.
 */
export function searchCity(
  profile: { city?: string | null; address?: string | null } | null,
  nearest: string | null = null,
): string {
  const fromProfile =
    (profile?.city &&
      CITIES.find((c) => c.slug === profile.city || c.name === profile.city)?.name) ||
    (profile?.address
      ? CITIES.find((c) => c.slug === citiesNamedIn(profile.address!)[0])?.name
      : undefined);
  return lastCity() ?? fromProfile ?? nearest ?? DEFAULT_LOCATION;
}
