import { v } from "convex/values";
import { customerMutation, publicQuery } from "./functions";
import * as Reviews from "./model/reviews";

export const create = customerMutation({
  args: { bookingId: v.id("bookings"), rating: v.number(), comment: v.optional(v.string()) },
  returns: v.id("reviews"),
  handler: (ctx, args) => Reviews.create(ctx, ctx.viewer, args),
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
