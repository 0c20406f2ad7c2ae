/**
 * What an admin sees before paying professionals out (rules/ledger.ts): each professional's
 * balance, a sum of ledger rows never stored, and the ledger's rows for export. Payouts themselves
 * are recorded as transfers (model/transfers.ts).
 */
import type { QueryCtx } from "../_generated/server";
import type { PaginationOptions } from "convex/server";
import { PAYOUT_LIMITS } from "../rules/payouts";
import { fail } from "./errors";
import { professionalBalance } from "./ledger";
import { bounded, nameOf } from "./transfers";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Professionals in the order they joined (a page keeps its rows as others join), each with what
 * the platform owes them (negative: what they owe).
 */
export async function balancesPage(ctx: QueryCtx, paginationOpts: PaginationOptions) {
  const page = await ctx.db.query("professionals").order("asc").paginate(bounded(paginationOpts));
  return {
    ...page,
    page: await Promise.all(
      page.page.map(async (pro) => {
        const [name, balance] = await Promise.all([
          nameOf(ctx, pro.userId),
          professionalBalance(ctx, pro._id),
        ]);
        return {
          professionalId: pro._id,
          name,
          city: pro.city,
          specialty: pro.specialty,
          duePaisa: balance.duePaisa,
        };
      }),
    ),
  };
}

/**
 * The ledger's rows from `from` up to (not including) `to`, oldest first, at most
 * PAYOUT_LIMITS.exportRows; `truncated` says when the range held more.
 */
export async function ledgerRows(ctx: QueryCtx, from: number, to: number) {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to <= from)
    fail("INVALID_INPUT", "Choose a start date before the end date.");
  if (to - from > PAYOUT_LIMITS.exportDays * DAY_MS)
    fail("INVALID_INPUT", `Export at most ${PAYOUT_LIMITS.exportDays} days at a time.`);
  const rows = await ctx.db
    .query("ledgerEntries")
    .withIndex("by_creation_time", (q) => q.gte("_creationTime", from).lt("_creationTime", to))
    .take(PAYOUT_LIMITS.exportRows + 1);
  return {
    truncated: rows.length > PAYOUT_LIMITS.exportRows,
    rows: rows.slice(0, PAYOUT_LIMITS.exportRows).map((r) => ({
      at: r._creationTime,
      txId: r.txId,
      kind: r.kind,
      account: r.account,
      amountPaisa: r.amountPaisa,
      method: r.method ?? null,
      reference: r.reference ?? null,
      bookingId: r.bookingId ?? null,
      professionalId: r.professionalId ?? null,
    })),
  };
}
