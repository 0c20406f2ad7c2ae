import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { forbid } from "./model/errors";
import * as Reports from "./model/reports";
import { chosenReportCategory } from "./validators";

/**
 * The customer or the professional of a booking reports it, the review on it, or a message the other
 * side sent in its conversation (`messageId`). Refused with
 * REPORT_OPEN while the reporter's report on the same target is open, and RATE_LIMITED past five an hour.
 */
export const create = userMutation({
  args: {
    bookingId: v.id("bookings"),
    target: v.union(v.literal("booking"), v.literal("review"), v.literal("message")),
    category: chosenReportCategory,
    text: v.string(),
    messageId: v.optional(v.id("chatMessages")),
  },
  returns: v.id("reports"),
  handler: async (ctx, args) => {
    if (ctx.viewer.role === "admin") forbid("Admins resolve reports; they do not file them.");
    return await Reports.create(ctx, ctx.viewer, args);
  },
});

/** The signed-in user's reports on one of their bookings, newest first, with their status and answer. */
export const mine = userQuery({
  args: { bookingId: v.id("bookings") },
  handler: async (ctx, { bookingId }) => await Reports.mineOn(ctx, ctx.viewer, bookingId),
});
