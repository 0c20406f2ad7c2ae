import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { customerMutation, professionalMutation, professionalQuery, userMutation, customerQuery, userQuery } from "./functions";
import { city } from "./validators";
import * as Bookings from "./model/bookings";

export const create = customerMutation({
  args: {
    professionalId: v.id("professionals"),
    serviceIds: v.array(v.id("services")),
    address: v.string(),
    city,
    scheduledFor: v.number(),
    note: v.optional(v.string()),
  },
  returns: v.id("bookings"),
  handler: (ctx, args) => Bookings.create(ctx, ctx.viewer, args),
});

export const accept = professionalMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Bookings.transition(ctx, { bookingId, to: "accepted", actor: "professional", actorUser: ctx.viewer });
    return null;
  },
});

export const reject = professionalMutation({
  args: { bookingId: v.id("bookings"), reason: v.optional(v.string()) },
  returns: v.null(),
  handler: async (ctx, { bookingId, reason }) => {
    await Bookings.transition(ctx, { bookingId, to: "rejected", actor: "professional", actorUser: ctx.viewer, reason });
    return null;
  },
});

export const startTrip = professionalMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Bookings.transition(ctx, { bookingId, to: "en_route", actor: "professional", actorUser: ctx.viewer });
    return null;
  },
});

export const arrive = professionalMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Bookings.transition(ctx, { bookingId, to: "in_progress", actor: "professional", actorUser: ctx.viewer });
    return null;
  },
});

export const complete = professionalMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Bookings.transition(ctx, { bookingId, to: "completed", actor: "professional", actorUser: ctx.viewer });
    return null;
  },
});

/** Its customer while requested/accepted; its professional once accepted (until arrival). */
export const cancel = userMutation({
  args: { bookingId: v.id("bookings"), reason: v.string() },
  returns: v.null(),
  handler: async (ctx, { bookingId, reason }) => {
    const role = ctx.viewer.role;
    if (role !== "customer" && role !== "professional") {
      Bookings.forbid();
    }
    await Bookings.transition(ctx, { bookingId, to: "cancelled", actor: role, actorUser: ctx.viewer, reason });
    return null;
  },
});

/** Scheduled at creation: a request still unanswered when it fires expires. */
export const expire = internalMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    const booking = await ctx.db.get("bookings", bookingId);
    if (booking?.status === "requested") {
      await Bookings.transition(ctx, { bookingId, to: "expired", actor: "system" });
    }
    return null;
  },
});

export const forProfessional = professionalQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) => Bookings.pageForProfessional(ctx, ctx.viewer, paginationOpts),
});

export const forCustomer = customerQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) => Bookings.pageForCustomer(ctx, ctx.viewer, paginationOpts),
});

/** Its customer, its professional or an admin; null when it does not exist. */
export const get = userQuery({
  args: { bookingId: v.id("bookings") },
  handler: (ctx, { bookingId }) => Bookings.getWithEvents(ctx, ctx.viewer, bookingId),
});

export const recentActivity = professionalQuery({
  args: {},
  returns: v.array(v.object({ text: v.string(), at: v.number() })),
  handler: (ctx) => Bookings.recentActivity(ctx, ctx.viewer),
});
