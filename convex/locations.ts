import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, internalQuery } from "./_generated/server";
import {
  customerQuery,
  getViewer,
  professionalMutation,
  requireViewer,
  sharedQuery,
  userQuery,
} from "./functions";
import { city, specialty } from "./validators";
import * as Locations from "./model/locations";
import { fail } from "./model/errors";

export const update = professionalMutation({
  args: { longitude: v.number(), latitude: v.number(), accuracy: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Locations.update(ctx, ctx.viewer, args);
    return null;
  },
});

/**
 * Markers of verified, available professionals seen in the last 10 minutes, rounded to ~500 m for
 * everyone. Queries may not read the clock, so the window is kept by the `sweepStaleLocations` cron
 * deleting older rows (at most a minute late). Exact positions come from the per-viewer queries below.
 */
// sharedQuery, not publicQuery: publicQuery reads the identity before the handler runs, and a run that
// reads the identity is cached per caller — every signed-in watcher would re-run this on every position
// write (p95 6.45 s at 300 watchers). Without it, one run per city/specialty is shared by all watchers.
export const current = sharedQuery({
  args: { city: v.optional(city), specialty: v.optional(specialty) },
  handler: (ctx, args) => Locations.current(ctx, args),
});

/** Exact positions of the professionals of the calling customer's active bookings (for the search map). */
export const forActiveBookings = customerQuery({
  args: {},
  returns: v.array(
    v.object({
      bookingId: v.id("bookings"),
      professionalId: v.id("professionals"),
      lat: v.number(),
      lng: v.number(),
      updatedAt: v.number(),
    }),
  ),
  handler: (ctx) => Locations.forActiveBookings(ctx, ctx.viewer),
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

/**
 * GET /api/current-locations and GET /api/technicians: locations:current's markers, but exact where the
 * token's viewer may see them (admins, the professional themself, the customer of an active booking;
 * a visitor once signed out). A one-off read, so depending on the viewer costs nothing shared.
 */
export const currentForApi = internalQuery({
  args: { city: v.optional(city) },
  handler: async (ctx, args) => Locations.currentFor(ctx, await getViewer(ctx), args),
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
    const viewer = await requireViewer(ctx, "professional");
    if (userId !== viewer._id) {
      fail("FORBIDDEN", "You can only report your own location.");
    }
    await Locations.update(ctx, viewer, position);
    return null;
  },
});
