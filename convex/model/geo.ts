/** Grid step for public positions: 0.005° is about 550 m north–south, ~490 m east–west at Nepal's latitude. */
export const PUBLIC_GRID_DEGREES = 0.005;

export function roundToGrid(value: number, step = PUBLIC_GRID_DEGREES): number {
  return Number((Math.round(value / step) * step).toFixed(6));
}

export function isValidPosition(lng: number, lat: number): boolean {
  return (
    Number.isFinite(lng) &&
    Number.isFinite(lat) &&
    lng >= -180 &&
    lng <= 180 &&
    lat >= -90 &&
    lat <= 90
  );
}
