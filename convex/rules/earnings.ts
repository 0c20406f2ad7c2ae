/**
 * A professional's earnings as pure rules, shared by the server and the Earnings page: the days
 * of the chart, one day's bucket in Kathmandu, and how the balance is shown.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Nepal keeps UTC+5:45 all year (no daylight saving), so a Kathmandu day is a fixed UTC range. */
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60 * 1000;
/** The chart's days, today included. */
export const CHART_DAYS = 30;
/** Jobs listed per page on the Earnings page. */
export const EARNINGS_PAGE_SIZE = 20;

/** The UTC instant when the Kathmandu calendar day holding `ms` began. */
export function kathmanduDayStart(ms: number): number {
  return Math.floor((ms + KATHMANDU_OFFSET_MS) / DAY_MS) * DAY_MS - KATHMANDU_OFFSET_MS;
}

/** The first instant the chart covers when it is `now`: midnight in Kathmandu, 29 days ago. */
export function chartStart(now: number): number {
  return kathmanduDayStart(now) - (CHART_DAYS - 1) * DAY_MS;
}

/** The sum of `amountPaisa` per day from `since`, one number per chart day; rows outside are left out. */
export function dailyTotals(
  rows: readonly { at: number; amountPaisa: number }[],
  since: number,
): number[] {
  const days = new Array<number>(CHART_DAYS).fill(0);
  for (const row of rows) {
    const day = Math.floor((row.at - since) / DAY_MS);
    if (day >= 0 && day < CHART_DAYS) days[day] += row.amountPaisa;
  }
  return days;
}

/**
 * The balance as two figures, at most one of them above zero: what the platform owes the
 * professional, or what they owe the platform (the commission on cash jobs they were paid in full,
 * less what is due to them).
 */
export function balanceSides(duePaisa: number): {
  dueToThemPaisa: number;
  owedByThemPaisa: number;
} {
  return { dueToThemPaisa: Math.max(0, duePaisa), owedByThemPaisa: Math.max(0, -duePaisa) };
}
