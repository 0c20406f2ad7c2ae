/** Admins pay professionals out and export the ledger (model/payouts.ts, model/transfers.ts). */
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as Payouts from "./model/payouts";
import * as Transfers from "./model/transfers";
import { transferFields } from "./validators";

/** Professionals in the order they joined, with the balance due to each (negative: what they owe). */
export const balances = adminQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) => Payouts.balancesPage(ctx, paginationOpts),
});

/**
 * Records a payout already made to a professional, of at most the balance due. `seenDuePaisa` is
 * the balance the admin saw: a different one (a second click) is refused as BALANCE_CHANGED.
 */
export const record = adminMutation({
  args: { ...transferFields, seenDuePaisa: v.number() },
  returns: v.id("payouts"),
  handler: async (ctx, args) =>
    (await Transfers.recordTransfer(ctx, ctx.viewer, "payout", args)).transferId,
});

/** Every payout, newest first. */
export const history = adminQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) => Transfers.historyPage(ctx, "payout", paginationOpts),
});

/** The ledger's rows in [from, to) for a CSV export, at most 5,000 (`truncated` says when cut). */
export const ledgerExport = adminQuery({
  args: { from: v.number(), to: v.number() },
  handler: (ctx, { from, to }) => Payouts.ledgerRows(ctx, from, to),
});
