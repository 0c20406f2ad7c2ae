import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { customerMutation, professionalMutation } from "./functions";
import * as Cash from "./model/cash";

/** The booking's professional received the bill's total in cash; the customer is asked to confirm. */
export const markReceived = professionalMutation({
  args: { bookingId: v.id("bookings"), amountPaisa: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Cash.markReceived(ctx, ctx.viewer, args);
    return null;
  },
});

/** The booking's customer confirms the cash recorded: it is booked in the ledger. */
export const confirm = customerMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Cash.confirm(ctx, ctx.viewer, bookingId);
    return null;
  },
});

/** The booking's customer disputes the cash recorded: a report goes to the admin's queue. */
export const dispute = customerMutation({
  args: { bookingId: v.id("bookings"), text: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Cash.dispute(ctx, ctx.viewer, args);
    return null;
  },
});

/** The customer of a cancelled booking did not pay the cash recorded: it is waived. */
export const notPaid = customerMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Cash.notPaid(ctx, ctx.viewer, bookingId);
    return null;
  },
});

/** Scheduled when cash is recorded: unanswered after 48 hours, it is confirmed. */
export const autoConfirm = internalMutation({
  args: { paymentId: v.id("payments") },
  returns: v.null(),
  handler: async (ctx, { paymentId }) => {
    await Cash.autoConfirm(ctx, paymentId);
    return null;
  },
});
