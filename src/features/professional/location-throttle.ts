/** When to send the professional's position to the server (MARKET.md: ≥ 10 m moved or every 15 s, ≤ 1/s). */
export const LOCATION_THROTTLE = {
  minDistanceM: 10,
  maxIntervalMs: 15_000,
  /** A little over the server's one-write-per-second limit, so network jitter never trips it. */
  minIntervalMs: 1_100,
} as const;

export type Fix = { lat: number; lng: number; at: number };

const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in metres (haversine). */
export function distanceM(
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Whether `next` should be sent given the last fix that was sent: always the first one; never within a second
 * of the previous send; otherwise once the professional has moved far enough or enough time has passed.
 */
export function shouldSendPosition(
  lastSent: Fix | null,
  next: Fix,
  limits = LOCATION_THROTTLE,
): boolean {
  if (lastSent === null) return true;
  const elapsed = next.at - lastSent.at;
  if (elapsed < limits.minIntervalMs) return false;
  if (elapsed >= limits.maxIntervalMs) return true;
  return distanceM(lastSent, next) >= limits.minDistanceM;
}
