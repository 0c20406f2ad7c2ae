/** Admins record cash commission a professional handed over (model/transfers.ts). */
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as Transfers from "./model/transfers";
import { transferFields } from "./validators";

/**
 * Records cash received from a professional towards the commission they owe on cash jobs, of at
 * most what they owe; the same reference again records nothing (`duplicate`).
 */
export const record = adminMutation({
  args: transferFields,
  returns: v.object({ settlementId: v.id("settlements"), duplicate: v.boolean() }),
  handler: async (ctx, args) => {
    const { transferId, duplicate } = await Transfers.recordTransfer(
      ctx,
      ctx.viewer,
      "settlement",
      args,
    );
    return { settlementId: transferId, duplicate };
  },
});

/** Every settlement, newest first. */
export const history = adminQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) => Transfers.historyPage(ctx, "settlement", paginationOpts),
});
