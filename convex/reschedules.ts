import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { customerMutation, customerQuery, professionalMutation } from "./functions";
import { fail } from "./model/errors";
import * as Reschedules from "./model/reschedules";

/**
 * The free start times the customer may move their booking to, live (rules/reschedule.ts). `now` is
 * the caller's clock rounded to the half hour (queries read no clock); propose checks it again.
 */
export const freeSlots = customerQuery({
  args: { bookingId: v.id("bookings"), now: v.number() },
  returns: v.object({ jobMinutes: v.number(), slots: v.array(v.number()) }),
  handler: (ctx, args) => {
    if (!Number.isFinite(args.now)) fail("INVALID_INPUT", "The time must be a number.");
    return Reschedules.freeSlotsToMove(ctx, ctx.viewer, args);
  },
});

/** The booking's customer proposes one of the professional's free start times. */
export const propose = customerMutation({
  args: { bookingId: v.id("bookings"), to: v.number() },
  returns: v.id("reschedules"),
  handler: (ctx, args) => Reschedules.propose(ctx, ctx.viewer, args),
});

/** The booking's professional accepts the proposed time: the booking moves to it. */
export const accept = professionalMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Reschedules.answer(ctx, ctx.viewer, { bookingId, accept: true });
    return null;
  },
});

/** The booking's professional declines the proposed time: the booking keeps its time. */
export const decline = professionalMutation({
  args: { bookingId: v.id("bookings"), reason: v.optional(v.string()) },
  returns: v.null(),
  handler: async (ctx, { bookingId, reason }) => {
    await Reschedules.answer(ctx, ctx.viewer, { bookingId, accept: false, reason });
    return null;
  },
});

/** The booking's customer takes back the new time still waiting for an answer. */
export const withdraw = customerMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Reschedules.withdraw(ctx, ctx.viewer, bookingId);
    return null;
  },
});

/** Scheduled with each proposal: unanswered at its time, or once the booking may no longer move, it lapses. */
export const lapse = internalMutation({
  args: { rescheduleId: v.id("reschedules") },
  returns: v.null(),
  handler: async (ctx, { rescheduleId }) => {
    await Reschedules.lapse(ctx, rescheduleId);
    return null;
  },
});
