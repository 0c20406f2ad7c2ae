import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as Bookings from "./model/bookings";
import * as AdminBookings from "./model/adminBookings";
import { bookingStatus, city } from "./validators";

/**
 * Every booking, newest first, filtered by status and by at most one of city, professional and
 * customer (INVALID_INPUT otherwise): each combination reads its own index.
 */
export const list = adminQuery({
  args: {
    status: v.optional(bookingStatus),
    city: v.optional(city),
    professionalId: v.optional(v.id("professionals")),
    customerId: v.optional(v.id("users")),
    paginationOpts: paginationOptsValidator,
  },
  handler: async (ctx, { paginationOpts, ...filters }) =>
    await AdminBookings.page(ctx, ctx.viewer, filters, paginationOpts),
});

/** One booking with its event log (oldest first), its review and the reports on it; null if missing. */
export const get = adminQuery({
  args: { bookingId: v.id("bookings") },
  handler: async (ctx, { bookingId }) => await AdminBookings.detail(ctx, ctx.viewer, bookingId),
});

/**
 * An admin cancels a booking not yet completed, with the reason both parties read (in their
 * language); a paid booking then owes its customer a refund (model/refunds.ts).
 */
export const cancel = adminMutation({
  args: { bookingId: v.id("bookings"), reason: v.string() },
  returns: v.null(),
  handler: async (ctx, { bookingId, reason }) => {
    await Bookings.transition(ctx, {
      bookingId,
      to: "cancelled",
      actor: "admin",
      actorUser: ctx.viewer,
      reason,
    });
    return null;
  },
});
