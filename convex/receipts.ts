import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./_generated/server";
import { userQuery } from "./functions";
import { BACKFILL_PAGE_SIZE, backfillPage } from "./model/receipts";
import { receiptFor } from "./model/receiptView";

/** A paid booking's receipt: its customer, its professional or an admin; null for anyone else. */
export const get = userQuery({
  args: { bookingId: v.id("bookings") },
  handler: (ctx, { bookingId }) => receiptFor(ctx, ctx.viewer, bookingId),
});

/**
 * Gives every paid booking made before receipts existed its receipt, a page of payments at a time,
 * each page in its own transaction, the next one scheduled until all were read. seed:init starts it
 * on every start and deploy; a second run issues nothing new.
 */
export const backfill = internalMutation({
  args: { cursor: v.union(v.string(), v.null()), pageSize: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, { cursor, pageSize = BACKFILL_PAGE_SIZE }) => {
    const numItems = Math.max(1, Math.min(Math.floor(pageSize), BACKFILL_PAGE_SIZE));
    const next = await backfillPage(ctx, cursor, numItems);
    if (next !== null)
      await ctx.scheduler.runAfter(0, internal.receipts.backfill, { cursor: next, pageSize });
    return null;
  },
});
