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

/**
 * The nearest-first index's grid: cells of 0.005° (~550 m north–south, ~490 m east–west in Nepal),
 * keyed "row:col". A pin's neighbours at ring r are the cells r steps away; anything outside rings
 * 0..r is at least r × MIN_CELL_METRES from the pin.
 */
export const CELL_DEGREES = 0.005;
export const MIN_CELL_METRES = 480;

export function cellOf(lat: number, lng: number): string {
  return `${Math.floor(lat / CELL_DEGREES)}:${Math.floor(lng / CELL_DEGREES)}`;
}

/** The cells exactly `r` steps (Chebyshev) from the pin's cell: 1 for r = 0, 8r otherwise. */
export function ringCells(lat: number, lng: number, r: number): string[] {
  const row = Math.floor(lat / CELL_DEGREES);
  const col = Math.floor(lng / CELL_DEGREES);
  if (r === 0) return [`${row}:${col}`];
  const cells: string[] = [];
  for (let dc = -r; dc <= r; dc++) cells.push(`${row - r}:${col + dc}`, `${row + r}:${col + dc}`);
  for (let dr = -r + 1; dr <= r - 1; dr++)
    cells.push(`${row + dr}:${col - r}`, `${row + dr}:${col + r}`);
  return cells;
}
