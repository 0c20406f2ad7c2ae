/**
 * The admin's revenue view as pure rules, shared by the server and the page: its periods (Kathmandu
 * days or calendar months) as boundaries the page computes from the clock, and the checks the
 * server makes on boundaries a client sends (queries do not read the clock).
 */
import { DAY_MS, kathmanduDayStart } from "./earnings";

export const REVENUE_UNITS = ["day", "month"] as const;
export type RevenueUnit = (typeof REVENUE_UNITS)[number];
/** Periods shown per unit, the current one included. */
export const REVENUE_PERIODS: Record<RevenueUnit, number> = { day: 30, month: 12 };
/** The most boundaries a client may send, and the longest span they may cover. */
const MAX_BOUNDS = 32;
const MAX_SPAN_MS = 400 * DAY_MS;
/** Nepal keeps UTC+5:45 all year. */
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60 * 1000;

/** The UTC instant when the Kathmandu calendar month `monthsBack` before the one holding `ms` began. */
export function kathmanduMonthStart(ms: number, monthsBack = 0): number {
  const local = new Date(ms + KATHMANDU_OFFSET_MS);
  return (
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - monthsBack, 1) - KATHMANDU_OFFSET_MS
  );
}

/** The periods' boundaries when it is `now`: one more than the periods, the last the current one's end. */
export function revenueBounds(unit: RevenueUnit, now: number): number[] {
  const n = REVENUE_PERIODS[unit];
  if (unit === "day") {
    const first = kathmanduDayStart(now) - (n - 1) * DAY_MS;
    return Array.from({ length: n + 1 }, (_, i) => first + i * DAY_MS);
  }
  return Array.from({ length: n + 1 }, (_, i) => kathmanduMonthStart(now, n - 1 - i));
}

/** Why boundaries are refused, or null: 2 to 32 increasing instants within 400 days. */
export function boundsProblem(bounds: readonly number[]): string | null {
  if (bounds.length < 2 || bounds.length > MAX_BOUNDS)
    return `Give 2 to ${MAX_BOUNDS} period boundaries.`;
  if (!bounds.every((b, i) => Number.isSafeInteger(b) && b >= 0 && (i === 0 || b > bounds[i - 1])))
    return "Period boundaries must be increasing whole milliseconds.";
  if (bounds[bounds.length - 1] - bounds[0] > MAX_SPAN_MS) return "The periods may span 400 days.";
  return null;
}
