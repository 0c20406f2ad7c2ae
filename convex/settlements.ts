/** Admins record cash commission a professional handed over (model/settlements.ts). */
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as Settlements from "./model/settlements";
import { payoutMethod } from "./validators";

/**
 * Records cash received from a professional towards the commission they owe on cash jobs, of at
 * most what they owe; the same reference again records nothing (`duplicate`).
 */
export const record = adminMutation({
  args: {
    professionalId: v.id("professionals"),
    method: payoutMethod,
    reference: v.string(),
    amountPaisa: v.number(),
  },
  returns: v.object({ settlementId: v.id("settlements"), duplicate: v.boolean() }),
  handler: (ctx, args) => Settlements.recordSettlement(ctx, ctx.viewer, args),
});

/** Every settlement, newest first. */
export const history = adminQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) => Settlements.historyPage(ctx, paginationOpts),
});
