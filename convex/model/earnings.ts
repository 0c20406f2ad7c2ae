/**
 * A professional's earnings, read from the ledger (rules/ledger.ts): each done and paid job is one
 * `job` transaction whose `professional_earning` row is the net, each payout one `payout`
 * transaction, and each cash commission handed over one `settlement` transaction. Nothing here is stored apart: every figure is a sum of ledger rows.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import type { PaginationOptions } from "convex/server";
import { balanceSides, dailyTotals, EARNINGS_PAGE_SIZE } from "../rules/earnings";
import { professionalBalance } from "./ledger";

/** Jobs read for the chart: 30 days at a busy professional's pace and then some. */
const MAX_CHART_ROWS = 1000;
/** Payouts listed; a professional is paid out a few times a week. */
const MAX_PAYOUTS_LISTED = 50;
/** Payouts summed: decades of payouts at that pace. */
const MAX_PAYOUTS_SUMMED = 10_000;
/** Settlements listed and summed, as payouts. */
const MAX_SETTLEMENTS_LISTED = 50;
const MAX_SETTLEMENTS_SUMMED = 10_000;
/** A job transaction has three entries; more would be someone else's bug, not a reason to read on. */
const MAX_TX_ENTRIES = 10;

/** The professional's earning rows of one kind, oldest first, from `since` when given. */
function earningRows(
  ctx: QueryCtx,
  professionalId: Id<"professionals">,
  kind: "job" | "payout",
  since = 0,
) {
  return ctx.db
    .query("ledgerEntries")
    .withIndex("by_professionalId_and_account_and_kind", (q) =>
      q
        .eq("professionalId", professionalId)
        .eq("account", "professional_earning")
        .eq("kind", kind)
        .gte("_creationTime", since),
    );
}

/** One job as the Earnings page lists it: gross, the platform's commission and the net, in paisa. */
async function jobRow(ctx: QueryCtx, row: Doc<"ledgerEntries">) {
  const [booking, entries] = await Promise.all([
    row.bookingId === undefined ? null : ctx.db.get("bookings", row.bookingId),
    ctx.db
      .query("ledgerEntries")
      .withIndex("by_txId", (q) => q.eq("txId", row.txId))
      .take(MAX_TX_ENTRIES),
  ]);
  const commissionPaisa = -entries
    .filter((e) => e.account === "commission")
    .reduce((sum, e) => sum + e.amountPaisa, 0);
  const netPaisa = -row.amountPaisa;
  return {
    _id: row._id,
    at: row._creationTime,
    bookingId: row.bookingId ?? null,
    services: booking?.services.map((s) => s.name) ?? [],
    grossPaisa: netPaisa + commissionPaisa,
    commissionPaisa,
    netPaisa,
    method: row.method ?? null,
  };
}

/** The professional's jobs, newest first, a page at a time (at most EARNINGS_PAGE_SIZE rows). */
export async function jobsPage(
  ctx: QueryCtx,
  professionalId: Id<"professionals">,
  paginationOpts: PaginationOptions,
) {
  const page = await earningRows(ctx, professionalId, "job")
    .order("desc")
    .paginate({
      ...paginationOpts,
      numItems: Math.max(1, Math.min(paginationOpts.numItems, EARNINGS_PAGE_SIZE)),
    });
  return { ...page, page: await Promise.all(page.page.map((row) => jobRow(ctx, row))) };
}

/**
 * The balance (what is due to them or what they owe), the payouts they received and the cash
 * commission they handed over (each newest first, with the total of all), and the net earned per Kathmandu day since `since` (the chart).
 */
export async function summary(ctx: QueryCtx, professionalId: Id<"professionals">, since: number) {
  const [balance, recentJobs, payouts, settlements] = await Promise.all([
    professionalBalance(ctx, professionalId),
    earningRows(ctx, professionalId, "job", since).take(MAX_CHART_ROWS),
    earningRows(ctx, professionalId, "payout").order("desc").take(MAX_PAYOUTS_SUMMED),
    ctx.db
      .query("ledgerEntries")
      .withIndex("by_professionalId_and_account_and_kind", (q) =>
        q
          .eq("professionalId", professionalId)
          .eq("account", "professional_cash")
          .eq("kind", "settlement"),
      )
      .order("desc")
      .take(MAX_SETTLEMENTS_SUMMED),
  ]);
  return {
    ...balanceSides(balance.duePaisa),
    daily: dailyTotals(
      recentJobs.map((r) => ({ at: r._creationTime, amountPaisa: -r.amountPaisa })),
      since,
    ),
    payouts: payouts.slice(0, MAX_PAYOUTS_LISTED).map((p) => ({
      _id: p._id,
      at: p._creationTime,
      amountPaisa: p.amountPaisa,
      method: p.method ?? null,
      reference: p.reference ?? null,
    })),
    paidOutPaisa: payouts.reduce((sum, p) => sum + p.amountPaisa, 0),
    // cash handed over: each a credit of the cash they held, shown positive
    settlements: settlements.slice(0, MAX_SETTLEMENTS_LISTED).map((s) => ({
      _id: s._id,
      at: s._creationTime,
      amountPaisa: -s.amountPaisa,
      method: s.method ?? null,
      reference: s.reference ?? null,
    })),
    settledPaisa: settlements.reduce((sum, s) => sum - s.amountPaisa, 0),
  };
}
