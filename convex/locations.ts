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

/** Who a marker is: what the map shows without its position. */
const onMapFields = {
  professionalId: v.id("professionals"),
  name: v.string(),
  specialty,
  specialtyName: v.string(),
};

/**
 * The map: who is on it (onMap), and each marker's position (marker, one subscription per marker,
 * as a Socket.IO map gets one message per moved marker). Both take no viewer, so every watcher of the
 * same arguments shares one run per change; onMap changes only when someone comes, goes or edits
 * their profile, and a marker only when its professional crosses into another ~500 m grid cell.
 * Professionals are on the map while seen in the last 10 minutes: queries may not read the clock, so
 * the window is kept by the `sweepStaleLocations` cron deleting older rows (at most a minute late).
 * Exact positions come from the per-viewer queries below.
 */
// sharedQuery, not publicQuery: publicQuery reads the identity before the handler runs, and a run that
// reads the identity is cached per caller — every signed-in watcher would re-run it on every write.
export const onMap = sharedQuery({
  args: { city: v.optional(city), specialty: v.optional(specialty) },
  returns: v.array(v.object(onMapFields)),
  handler: (ctx, args) => Locations.onMap(ctx, args),
});

export const marker = sharedQuery({
  args: { professionalId: v.id("professionals") },
  returns: v.union(v.null(), v.object({ lat: v.number(), lng: v.number() })),
  handler: (ctx, { professionalId }) => Locations.marker(ctx, professionalId),
});

/** onMap's markers with their rounded positions in one result, for one-off reads. */
export const current = sharedQuery({
  args: { city: v.optional(city), specialty: v.optional(specialty) },
  returns: v.array(
    v.object({
      ...onMapFields,
      city,
      lat: v.number(),
      lng: v.number(),
      exact: v.boolean(),
    }),
  ),
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

/**
 * GET /api/current-locations' `Technicians`, with currentForApi's precision, as the JSON text the endpoint
 * sends: serialised here, Convex's query cache keeps the text while nothing it read changes, where the
 * endpoint would serialise the same ~12 KB again for every request.
 */
export const techniciansForApi = internalQuery({
  args: {},
  returns: v.string(),
  handler: async (ctx) =>
    JSON.stringify(
      (await Locations.currentFor(ctx, await getViewer(ctx), {})).map(Locations.apiTechnician),
    ),
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
