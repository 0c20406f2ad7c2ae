/** Refunds of cancelled paid bookings (model/refunds.ts). */
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as Refunds from "./model/refunds";

/** Refunds owed to customers and not yet made, oldest first. */
export const due = adminQuery({
  args: {},
  handler: async (ctx) => await Refunds.dueRefunds(ctx),
});

/** Records a refund the admin made (in the gateway's merchant portal, or in cash), by its reference. */
export const markRefunded = adminMutation({
  args: { refundId: v.id("refunds"), reference: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Refunds.markRefunded(ctx, ctx.viewer, args);
    return null;
  },
});
