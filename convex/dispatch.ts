import { v } from "convex/values";
import { internalMutation, internalQuery } from "./_generated/server";
import {
  customerMutation,
  customerQuery,
  professionalMutation,
  professionalQuery,
} from "./functions";
import { city, pin, specialty } from "./validators";
import * as Dispatch from "./model/dispatch";
import { nearestAvailable } from "./model/dispatchSpots";

/** "Find the nearest available professional now" for the services chosen, at the pinned address. */
export const request = customerMutation({
  args: {
    serviceIds: v.array(v.id("services")),
    city,
    address: v.string(),
    pin,
    note: v.optional(v.string()),
  },
  returns: v.id("dispatchRequests"),
  handler: (ctx, args) => Dispatch.request(ctx, ctx.viewer, args),
});

/** After a no-show: the same job, nearest available now at its pin, anyone but that professional. */
export const redispatch = customerMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.id("dispatchRequests"),
  handler: (ctx, { bookingId }) => Dispatch.redispatch(ctx, ctx.viewer, bookingId),
});

export const cancel = customerMutation({
  args: { requestId: v.id("dispatchRequests") },
  returns: v.null(),
  handler: async (ctx, { requestId }) => {
    await Dispatch.cancel(ctx, ctx.viewer, requestId);
    return null;
  },
});

/** The customer's request, live: status and "offered to 3, 1 declined". Null for anyone else's. */
export const get = customerQuery({
  args: { requestId: v.id("dispatchRequests") },
  handler: (ctx, { requestId }) => Dispatch.view(ctx, ctx.viewer, requestId),
});

/** The signed-in professional's newest offers, live. */
export const myOffers = professionalQuery({
  args: {},
  handler: (ctx) => Dispatch.offersFor(ctx, ctx.viewer),
});

/** Refused with OFFER_TAKEN when another professional accepted first. */
export const accept = professionalMutation({
  args: { offerId: v.id("dispatchOffers") },
  returns: v.id("bookings"),
  handler: (ctx, { offerId }) => Dispatch.accept(ctx, ctx.viewer, offerId),
});

export const decline = professionalMutation({
  args: { offerId: v.id("dispatchOffers") },
  returns: v.null(),
  handler: async (ctx, { offerId }) => {
    await Dispatch.decline(ctx, ctx.viewer, offerId);
    return null;
  },
});

export const timeOut = internalMutation({
  args: { offerId: v.id("dispatchOffers") },
  returns: v.null(),
  handler: async (ctx, { offerId }) => {
    await Dispatch.timeOut(ctx, offerId);
    return null;
  },
});

export const giveUp = internalMutation({
  args: { requestId: v.id("dispatchRequests") },
  returns: v.null(),
  handler: async (ctx, { requestId }) => {
    await Dispatch.giveUp(ctx, requestId);
    return null;
  },
});

/** The bench's probe of the nearest-first index: who, and how many documents it read. */
export const nearest = internalQuery({
  args: { specialty, city, pin, limit: v.number() },
  returns: v.object({ ids: v.array(v.id("professionals")), reads: v.number() }),
  handler: async (ctx, args) => {
    const { found, reads } = await nearestAvailable(ctx, { ...args, exclude: new Set() });
    return { ids: found.map((c) => c.spot.professionalId), reads };
  },
});
