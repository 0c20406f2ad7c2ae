/**
 * The platform's revenue per period, summed from ledger rows (rules/ledger.ts): each `job`
 * transaction is one completed and paid job — its customer row the gross (split by how it was paid),
 * its commission row the platform's share; a `fee` transaction's customer row is a late-cancellation
 * fee paid (rules/cancellation.ts) and its commission row the platform's share of it; a `refund`
 * transaction's customer row is a payment owed back after a cancellation.
 */
import type { QueryCtx } from "../_generated/server";
import type { TxKind } from "../rules/ledger";

/** Rows read per kind: about 3,000 jobs; `truncated` says when there were more. */
const MAX_ROWS = 10_000;

const FIGURES = [
  "jobs",
  "grossPaisa",
  "gatewayPaisa",
  "cashPaisa",
  "commissionPaisa",
  "feesPaisa",
  "feeCommissionPaisa",
  "refundsPaisa",
] as const;

/** A period's or the whole span's sums (commissions as the platform's income: positive). */
export type RevenueFigures = Record<(typeof FIGURES)[number], number>;

const nothingYet = (): RevenueFigures =>
  Object.fromEntries(FIGURES.map((f) => [f, 0])) as RevenueFigures;

async function rowsOf(ctx: QueryCtx, kind: TxKind, from: number, to: number) {
  return await ctx.db
    .query("ledgerEntries")
    .withIndex("by_kind", (q) =>
      q.eq("kind", kind).gte("_creationTime", from).lt("_creationTime", to),
    )
    .take(MAX_ROWS + 1);
}

export async function revenue(ctx: QueryCtx, bounds: readonly number[]) {
  const from = bounds[0];
  const to = bounds[bounds.length - 1];
  const [jobs, fees, refunds] = await Promise.all([
    rowsOf(ctx, "job", from, to),
    rowsOf(ctx, "fee", from, to),
    rowsOf(ctx, "refund", from, to),
  ]);
  const periods = bounds
    .slice(0, -1)
    .map((start, i) => ({ start, end: bounds[i + 1], ...nothingYet() }));
  const periodOf = (at: number) => periods.find((p) => at >= p.start && at < p.end)!;
  const rows = [jobs, fees, refunds].flatMap((r) => r.slice(0, MAX_ROWS));
  for (const row of rows) {
    const period = periodOf(row._creationTime);
    if (row.kind === "job" && row.account === "customer") {
      period.jobs += 1;
      period.grossPaisa += row.amountPaisa;
      if (row.method === "cash") period.cashPaisa += row.amountPaisa;
      else period.gatewayPaisa += row.amountPaisa;
    } else if (row.kind === "job" && row.account === "commission") {
      period.commissionPaisa -= row.amountPaisa;
    } else if (row.kind === "fee" && row.account === "customer") {
      period.feesPaisa += row.amountPaisa;
    } else if (row.kind === "fee" && row.account === "commission") {
      period.feeCommissionPaisa -= row.amountPaisa;
    } else if (row.kind === "refund" && row.account === "customer") {
      period.refundsPaisa += row.amountPaisa;
    }
  }
  const total = nothingYet();
  for (const period of periods) for (const f of FIGURES) total[f] += period[f];
  return {
    periods,
    total,
    truncated: [jobs, fees, refunds].some((r) => r.length > MAX_ROWS),
  };
}
