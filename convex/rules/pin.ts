/**
 * A map pin: where a booking's job is. The server refuses a pin outside Nepal with this rule and the
 * web app's pin picker checks it before sending.
 */

export type Pin = { lat: number; lng: number };

/** Nepal's bounding box (degrees), with a margin of a few hundred metres for pins on the border. */
export const NEPAL_BOUNDS = { south: 26.34, north: 30.45, west: 80.05, east: 88.21 } as const;

export function insideNepal(pin: Pin): boolean {
  const { south, north, west, east } = NEPAL_BOUNDS;
  return (
    Number.isFinite(pin.lat) &&
    Number.isFinite(pin.lng) &&
    pin.lat >= south &&
    pin.lat <= north &&
    pin.lng >= west &&
    pin.lng <= east
  );
}

/** A pin rounded to ~1 m: the client's 15 decimal digits say nothing more. */
export function roundPin(pin: Pin): Pin {
  return { lat: Number(pin.lat.toFixed(5)), lng: Number(pin.lng.toFixed(5)) };
}

/** Straight-line distance in metres (haversine). */
export function distanceMetres(a: Pin, b: Pin): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}
