/**
 * Reviews held for an admin (rules/bookingLifecycle.ts COMPLETION): of jobs that went from accepted
 * to work done implausibly fast. The admin publishes one (it joins the rating and the public list) or
 * removes it; either way the professional's rating is recomputed from their counted reviews and the
 * decision is kept in `reviewDecisions`.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { fail } from "./errors";
import { updateProfessional } from "./professionalUpdate";

const HELD_LISTED = 100;
/** Reviews read to recompute one professional's rating. */
const RATING_SCAN = 10_000;

/** Held reviews, newest first, with the job's times and both parties' names. */
export async function listHeld(ctx: QueryCtx) {
  const held = await ctx.db
    .query("reviews")
    .withIndex("by_held", (q) => q.eq("held", true))
    .order("desc")
    .take(HELD_LISTED);
  return await Promise.all(
    held.map(async (r) => {
      const [booking, customer, pro] = await Promise.all([
        ctx.db.get("bookings", r.bookingId),
        ctx.db.get("users", r.customerId),
        ctx.db.get("professionals", r.professionalId),
      ]);
      const proUser = pro === null ? null : await ctx.db.get("users", pro.userId);
      const { acceptedAt, workDoneAt } = booking ?? {};
      return {
        _id: r._id,
        bookingId: r.bookingId,
        rating: r.rating,
        comment: r.comment ?? null,
        at: r._creationTime,
        customerName: customer?.name ?? "Customer",
        professionalName: proUser?.name ?? "Professional",
        jobMs:
          acceptedAt !== undefined && workDoneAt !== undefined ? workDoneAt - acceptedAt : null,
      };
    }),
  );
}

/** The professional's rating as the sum and count of their counted (not held) reviews. */
async function recomputeRating(ctx: MutationCtx, professionalId: Id<"professionals">) {
  const pro = await ctx.db.get("professionals", professionalId);
  if (pro === null) return;
  const reviews = await ctx.db
    .query("reviews")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
    .take(RATING_SCAN);
  const counted = reviews.filter((r) => !r.held);
  await updateProfessional(ctx, pro, {
    rating: { sum: counted.reduce((sum, r) => sum + r.rating, 0), count: counted.length },
  });
}

async function record(
  ctx: MutationCtx,
  admin: Doc<"users">,
  review: Doc<"reviews">,
  decision: "removed" | "published",
) {
  await ctx.db.insert("reviewDecisions", {
    reviewId: review._id,
    bookingId: review.bookingId,
    professionalId: review.professionalId,
    customerId: review.customerId,
    adminId: admin._id,
    decision,
    rating: review.rating,
    comment: review.comment,
  });
  console.log(`review ${review._id} ${decision} by admin ${admin._id}`);
}

/** The held review joins the rating and the public list. */
export async function publish(ctx: MutationCtx, admin: Doc<"users">, reviewId: Id<"reviews">) {
  const review = await ctx.db.get("reviews", reviewId);
  if (review === null) fail("NOT_FOUND", "This review was not found.");
  if (!review.held) return;
  await ctx.db.patch("reviews", review._id, { held: undefined });
  await recomputeRating(ctx, review.professionalId);
  await record(ctx, admin, review, "published");
}

/** Any review (held or counted) is deleted; the booking stays reviewed, so none replaces it. */
export async function remove(ctx: MutationCtx, admin: Doc<"users">, reviewId: Id<"reviews">) {
  const review = await ctx.db.get("reviews", reviewId);
  if (review === null) fail("NOT_FOUND", "This review was not found.");
  await ctx.db.delete("reviews", review._id);
  await recomputeRating(ctx, review.professionalId);
  await record(ctx, admin, review, "removed");
}
