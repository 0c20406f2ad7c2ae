import { v } from "convex/values";
import { customerMutation, professionalMutation, userQuery } from "./functions";
import { siteLineKind } from "./validators";
import * as Bill from "./model/bill";
import { canSee } from "./model/bookings";

/** A booking's bill with its lines and payment: its customer, its professional or an admin; else null. */
export const get = userQuery({
  args: { bookingId: v.id("bookings") },
  handler: async (ctx, { bookingId }) => {
    const booking = await ctx.db.get("bookings", bookingId);
    if (booking === null || !canSee(ctx.viewer, booking)) return null;
    return await Bill.billView(ctx, booking);
  },
});

/** The booking's professional adds a part, extra work or a quote while the job is in progress. */
export const propose = professionalMutation({
  args: {
    bookingId: v.id("bookings"),
    kind: siteLineKind,
    label: v.string(),
    amountPaisa: v.number(),
    reason: v.string(),
  },
  returns: v.id("billLines"),
  handler: (ctx, args) => Bill.proposeLine(ctx, ctx.viewer, args),
});

/** The booking's customer approves or declines a proposed line. */
export const decide = customerMutation({
  args: { lineId: v.id("billLines"), approve: v.boolean() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Bill.decideLine(ctx, ctx.viewer, args);
    return null;
  },
});
