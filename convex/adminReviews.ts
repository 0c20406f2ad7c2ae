/** Reviews held for a check (model/heldReviews.ts): the admin's list, publish and remove. */
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as HeldReviews from "./model/heldReviews";

/** Held reviews of implausibly fast jobs, newest first. */
export const held = adminQuery({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("reviews"),
      bookingId: v.id("bookings"),
      rating: v.number(),
      comment: v.union(v.string(), v.null()),
      at: v.number(),
      customerName: v.string(),
      professionalName: v.string(),
      jobMs: v.union(v.number(), v.null()),
    }),
  ),
  handler: async (ctx) => await HeldReviews.listHeld(ctx),
});

export const publish = adminMutation({
  args: { reviewId: v.id("reviews") },
  returns: v.null(),
  handler: async (ctx, { reviewId }) => {
    await HeldReviews.publish(ctx, ctx.viewer, reviewId);
    return null;
  },
});

export const remove = adminMutation({
  args: { reviewId: v.id("reviews") },
  returns: v.null(),
  handler: async (ctx, { reviewId }) => {
    await HeldReviews.remove(ctx, ctx.viewer, reviewId);
    return null;
  },
});
