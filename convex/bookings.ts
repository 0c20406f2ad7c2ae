import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internalMutation, internalQuery } from "./_generated/server";
import {
  customerMutation,
  customerQuery,
  professionalMutation,
  professionalQuery,
  requireViewer,
  userMutation,
  userQuery,
} from "./functions";
import { bookingStatus, city, pin } from "./validators";
import { STEPS } from "./rules/bookingLifecycle";
import * as Bookings from "./model/bookings";
import * as JobConfirmation from "./model/jobConfirmation";
import * as JobStart from "./model/jobStart";
import * as NoShows from "./model/noShows";
import * as Slots from "./model/slots";
import { fail, forbid, notFound } from "./model/errors";

export const create = customerMutation({
  args: {
    professionalId: v.id("professionals"),
    serviceIds: v.array(v.id("services")),
    address: v.string(),
    city,
    scheduledFor: v.number(),
    note: v.optional(v.string()),
    pin: v.optional(pin),
  },
  returns: v.id("bookings"),
  handler: (ctx, args) => Bookings.create(ctx, ctx.viewer, args),
});

/**
 * The booking dialog's free start times for a professional and the chosen services, live: a time
 * another customer books disappears. `now` is the caller's clock rounded to the half hour (queries
 * read no clock); bookings:create checks the time against the server's.
 */
export const freeSlots = customerQuery({
  args: {
    professionalId: v.id("professionals"),
    serviceIds: v.array(v.id("services")),
    now: v.number(),
  },
  returns: v.object({
    jobMinutes: v.number(),
    slots: v.array(v.number()),
    refusal: v.union(
      v.null(),
      v.literal("PROFESSIONAL_UNVERIFIED"),
      v.literal("PROFESSIONAL_UNAVAILABLE"),
      v.literal("PROFESSIONAL_ON_HOLD"),
    ),
  }),
  handler: (ctx, args) => {
    if (!Number.isFinite(args.now)) fail("INVALID_INPUT", "The time must be a number.");
    return Slots.slotsView(ctx, ctx.viewer, args);
  },
});

/** A professional's step along the lifecycle that needs nothing but the booking (rules/bookingLifecycle STEPS). */
function professionalStep(step: "startTrip" | "arrive" | "complete") {
  return professionalMutation({
    args: { bookingId: v.id("bookings") },
    returns: v.null(),
    handler: async (ctx, { bookingId }) => {
      await Bookings.transition(ctx, {
        bookingId,
        to: STEPS[step],
        actor: "professional",
        actorUser: ctx.viewer,
      });
      return null;
    },
  });
}

/** Refused with BOOKING_CLASH when another accepted job is near, unless the professional confirms the clash. */
export const accept = professionalMutation({
  args: { bookingId: v.id("bookings"), confirmClash: v.optional(v.boolean()) },
  returns: v.null(),
  handler: async (ctx, { bookingId, confirmClash }) => {
    await Bookings.transition(ctx, {
      bookingId,
      to: "accepted",
      actor: "professional",
      actorUser: ctx.viewer,
      confirmClash,
    });
    return null;
  },
});
export const startTrip = professionalStep("startTrip");
export const arrive = professionalStep("arrive");
export const complete = professionalStep("complete");

/**
 * The arrived professional enters the start code the customer's screen shows (rules/startCode.ts).
 * A wrong code answers `started: false` with the tries left; once they are spent, START_CODE_SPENT.
 */
export const start = professionalMutation({
  args: { bookingId: v.id("bookings"), code: v.string() },
  returns: v.union(
    v.object({ started: v.literal(true) }),
    v.object({ started: v.literal(false), triesLeft: v.number() }),
  ),
  handler: (ctx, { bookingId, code }) => JobStart.startWithCode(ctx, ctx.viewer, bookingId, code),
});

/** After too many wrong start codes, the customer starts the job with a tap. */
export const confirmStart = customerMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await JobStart.confirmStart(ctx, ctx.viewer, bookingId);
    return null;
  },
});

export const reject = professionalMutation({
  args: { bookingId: v.id("bookings"), reason: v.optional(v.string()) },
  returns: v.null(),
  handler: async (ctx, { bookingId, reason }) => {
    await Bookings.transition(ctx, {
      bookingId,
      to: "rejected",
      actor: "professional",
      actorUser: ctx.viewer,
      reason,
    });
    return null;
  },
});

/**
 * Its customer until the job starts (from "on the way" on, with the late-cancellation fee they saw:
 * CANCEL_FEE with the fee otherwise); its professional once accepted (until the job starts).
 */
export const cancel = userMutation({
  args: { bookingId: v.id("bookings"), reason: v.string(), seenFeePaisa: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, { bookingId, reason, seenFeePaisa }) => {
    const role = ctx.viewer.role;
    if (role !== "customer" && role !== "professional") {
      forbid();
    }
    await Bookings.transition(ctx, {
      bookingId,
      to: "cancelled",
      actor: role,
      actorUser: ctx.viewer,
      reason,
      seenFeePaisa,
    });
    return null;
  },
});

/**
 * The customer closes a booking whose professional has not arrived `noShowAfterMinutes` after the
 * booked time (rules/noShow.ts); the professional gets a strike.
 */
export const markNoShow = customerMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await NoShows.markNoShow(ctx, ctx.viewer, bookingId);
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

/** The customer says the job the professional marked done is done: then it may be reviewed. */
export const confirmDone = customerMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await JobConfirmation.confirm(ctx, ctx.viewer, bookingId);
    return null;
  },
});

/** Scheduled when the work is marked done: the customer who said nothing is taken to agree. */
export const autoConfirm = internalMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await JobConfirmation.autoConfirm(ctx, bookingId);
    return null;
  },
});

export const forProfessional = professionalQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) =>
    Bookings.pageForProfessional(ctx, ctx.viewer, paginationOpts),
});

export const forCustomer = customerQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: (ctx, { paginationOpts }) => Bookings.pageForCustomer(ctx, ctx.viewer, paginationOpts),
});

/** Its customer, its professional or an admin; null for anyone else, as when it does not exist. */
export const get = userQuery({
  args: { bookingId: v.id("bookings") },
  handler: (ctx, { bookingId }) => Bookings.getWithEvents(ctx, ctx.viewer, bookingId),
});

export const recentActivity = professionalQuery({
  args: {},
  returns: v.array(
    v.object({
      text: v.string(),
      at: v.number(),
      kind: bookingStatus,
      categories: v.array(v.object({ slug: v.string(), name: v.string() })),
      rating: v.optional(v.number()),
    }),
  ),
  handler: (ctx) => Bookings.recentActivity(ctx, ctx.viewer),
});

/**
 * GET /api/bookings/{userId}: that user's newest 100 bookings in the spec's shape; the user or an
 * admin. Anyone else gets the 404 of a user who does not exist, so ids cannot be probed.
 */
export const listForApi = internalQuery({
  args: { userId: v.string() },
  handler: async (ctx, args) => {
    const viewer = await requireViewer(ctx);
    const userId = ctx.db.normalizeId("users", args.userId);
    const user = userId === null ? null : await ctx.db.get("users", userId);
    if (user === null || (viewer._id !== user._id && viewer.role !== "admin")) {
      notFound("This user was not found.");
    }
    const bookings = await Bookings.recentForUser(ctx, viewer, user, 100);
    return bookings.map((b) => ({
      ...b,
      services: b.services.map((s) => ({
        _id: s.id,
        name: s.name,
        serviceCategory: s.category,
        price: s.price,
      })),
      location: { address: b.address, city: b.city },
    }));
  },
});

/** PUT /api/bookings/{bookingId} {status: accepted | rejected}: its professional answers the request. */
export const answerForApi = internalMutation({
  args: { bookingId: v.string(), status: v.union(v.literal("accepted"), v.literal("rejected")) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const viewer = await requireViewer(ctx, "professional");
    const bookingId = ctx.db.normalizeId("bookings", args.bookingId);
    if (bookingId === null) notFound("This booking was not found.");
    await Bookings.transition(ctx, {
      bookingId,
      to: args.status,
      actor: "professional",
      actorUser: viewer,
    });
    return null;
  },
});
