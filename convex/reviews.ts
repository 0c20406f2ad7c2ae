import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { customerMutation, professionalMutation, publicQuery } from "./functions";
import { limitReview } from "./model/rateLimit";
import * as Reviews from "./model/reviews";

/**
 * At most RATE_LIMITS.review.perUser a day per customer. `held`: the job was implausibly fast, so
 * the review waits for an admin before it counts.
 */
export const create = customerMutation({
  args: { bookingId: v.id("bookings"), rating: v.number(), comment: v.optional(v.string()) },
  returns: v.object({ reviewId: v.id("reviews"), held: v.boolean() }),
  handler: async (ctx, args) => {
    await limitReview(ctx, ctx.viewer);
    return await Reviews.create(ctx, ctx.viewer, args);
  },
});

/** Newest 50 reviews of a professional; reviewer shown as first name and initial. */
export const forProfessional = publicQuery({
  args: { professionalId: v.id("professionals") },
  returns: v.array(
    v.object({
      rating: v.number(),
      comment: v.union(v.string(), v.null()),
      customerName: v.string(),
      at: v.number(),
    }),
  ),
  handler: (ctx, { professionalId }) => Reviews.forProfessional(ctx, professionalId),
});

/** The landing page's testimonials from real five-star reviews (model/reviews.ts testimonials). */
export const testimonials = publicQuery({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("reviews"),
      comment: v.string(),
      customerName: v.string(),
      specialty: v.string(),
      city: v.string(),
    }),
  ),
  handler: (ctx) => Reviews.testimonials(ctx),
});

/** A verified professional's reviews with comments and replies, newest first, paginated. */
export const page = publicQuery({
  args: { professionalId: v.id("professionals"), paginationOpts: paginationOptsValidator },
  handler: async (ctx, { professionalId, paginationOpts }) => {
    const pro = await ctx.db.get("professionals", professionalId);
    const visible =
      pro !== null &&
      (pro.verification.status === "verified" ||
        ctx.viewer?.role === "admin" ||
        ctx.viewer?._id === pro.userId);
    if (!visible) return { page: [], isDone: true, continueCursor: "" };
    return await Reviews.pageForProfessional(ctx, professionalId, paginationOpts);
  },
});

/** The reviewed professional answers a review, once. */
export const reply = professionalMutation({
  args: { reviewId: v.id("reviews"), text: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Reviews.reply(ctx, ctx.viewer, args);
    return null;
  },
});
