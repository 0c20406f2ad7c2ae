import { ConvexError, v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, internalQuery } from "./_generated/server";
import {
  getSessionViewer,
  professionalMutation,
  publicQuery,
  requireSessionViewer,
  userQuery,
} from "./functions";
import { city, specialty } from "./validators";
import * as Locations from "./model/locations";

export const update = professionalMutation({
  args: { longitude: v.number(), latitude: v.number(), accuracy: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Locations.update(ctx, ctx.viewer, args);
    return null;
  },
});

/**
 * Markers of professionals seen in the last 10 minutes. Queries may not read the clock, so the
 * window is kept by the `sweepStaleLocations` cron deleting older rows (at most a minute late).
 */
export const current = publicQuery({
  args: { city: v.optional(city), specialty: v.optional(specialty) },
  handler: (ctx, args) => Locations.current(ctx, ctx.viewer, args),
});

export const forBooking = userQuery({
  args: { bookingId: v.id("bookings") },
  returns: v.union(v.null(), v.object({ lat: v.number(), lng: v.number(), updatedAt: v.number() })),
  handler: (ctx, { bookingId }) => Locations.forBooking(ctx, ctx.viewer, bookingId),
});

export const sweepStale = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    if (await Locations.sweepStale(ctx, Date.now())) {
      await ctx.scheduler.runAfter(0, internal.locations.sweepStale, {});
    }
    return null;
  },
});

/** GET /api/current-locations: the same markers as locations:current for the token's viewer (a visitor once signed out). */
export const currentForApi = internalQuery({
  args: {},
  handler: async (ctx) => Locations.current(ctx, await getSessionViewer(ctx), {}),
});

/** POST /api/current-location {userId, longitude, latitude}: userId must be the signed-in professional. */
export const updateForApi = internalMutation({
  args: {
    userId: v.string(),
    longitude: v.number(),
    latitude: v.number(),
    accuracy: v.optional(v.number()),
  },
  returns: v.null(),
  handler: async (ctx, { userId, ...position }) => {
    const viewer = await requireSessionViewer(ctx, "professional");
    if (userId !== viewer._id) {
      throw new ConvexError({
        code: "FORBIDDEN",
        message: "You can only report your own location.",
      });
    }
    await Locations.update(ctx, viewer, position);
    return null;
  },
});
