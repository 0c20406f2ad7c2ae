import type { PaginationOptions } from "convex/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { SPECIALTIES } from "../constants";
import { BOOKING_FIELDS } from "../rules/bookingFields";
import { transition } from "./bookings";
import { fail } from "./errors";
import { wasImplausiblyFast } from "./jobConfirmation";
import { updateProfessional } from "./professionalUpdate";

const MAX_COMMENT = BOOKING_FIELDS.reviewComment.max;
const MAX_LISTED = 50;

/**
 * The booking's customer rates a job they confirmed done, once; the profile's aggregate moves in the
 * same transaction. A review of an implausibly fast job is held (rules/bookingLifecycle.ts
 * COMPLETION): stored, but counted and shown only once an admin publishes it.
 */
export async function create(
  ctx: MutationCtx,
  customer: Doc<"users">,
  args: { bookingId: Id<"bookings">; rating: number; comment?: string },
): Promise<{ reviewId: Id<"reviews">; held: boolean }> {
  if (!Number.isInteger(args.rating) || args.rating < 1 || args.rating > 5) {
    fail("INVALID_RATING", "Please give a rating from 1 to 5 stars.");
  }
  const comment = args.comment?.trim() || undefined;
  if (comment !== undefined && comment.length > MAX_COMMENT) {
    fail("COMMENT_TOO_LONG", `The comment may be at most ${MAX_COMMENT} characters.`);
  }
  const booking = await ctx.db.get("bookings", args.bookingId);
  // someone else's booking answers as a missing one
  if (booking === null || booking.customerId !== customer._id) {
    fail("NOT_FOUND", "This booking was not found.");
  }
  const existing = await ctx.db
    .query("reviews")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", booking._id))
    .first();
  if (existing !== null || booking.status === "reviewed") {
    fail("ALREADY_REVIEWED", "You have already reviewed this booking.");
  }
  if (booking.status !== "completed") {
    fail("NOT_COMPLETED", "You can review a booking once the job is completed.");
  }
  if (booking.confirmedBy === undefined) {
    fail("NOT_CONFIRMED", "Please confirm the job is done before you rate it.");
  }
  const held = await wasImplausiblyFast(ctx, booking);
  const reviewId = await ctx.db.insert("reviews", {
    bookingId: booking._id,
    professionalId: booking.professionalId,
    customerId: customer._id,
    rating: args.rating,
    comment,
    ...(held ? { held: true as const } : {}),
  });
  const pro = held ? null : await ctx.db.get("professionals", booking.professionalId);
  if (pro !== null) {
    await updateProfessional(ctx, pro, {
      rating: { sum: pro.rating.sum + args.rating, count: pro.rating.count + 1 },
    });
  }
  await transition(ctx, {
    bookingId: booking._id,
    to: "reviewed",
    actor: "customer",
    actorUser: customer,
  });
  return { reviewId, held };
}

/** "Sita Sharma" → "Sita S.": enough to trust a review, not enough to find the reviewer. */
function shortName(name: string | undefined): string {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "Customer";
  return parts.length === 1 ? parts[0] : `${parts[0]} ${parts[parts.length - 1][0]}.`;
}

export async function forProfessional(ctx: QueryCtx, professionalId: Id<"professionals">) {
  const reviews = await ctx.db
    .query("reviews")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
    .order("desc")
    .take(MAX_LISTED);
  return await Promise.all(
    reviews
      .filter((r) => !r.held)
      .map(async (r) => ({
        rating: r.rating,
        comment: r.comment ?? null,
        customerName: shortName((await ctx.db.get("users", r.customerId))?.name),
        at: r._creationTime,
      })),
  );
}

/** Newest five-star reviews read to find the landing page's few with words worth quoting. */
const TESTIMONIAL_SCAN = 30;
const TESTIMONIALS_SHOWN = 3;
const TESTIMONIAL_MIN_CHARS = 20;

/**
 * The landing page's testimonials: the newest published five-star reviews with a sentence of words,
 * of professionals still listed, each signed with the customer's first name and initial, the
 * professional's specialty and the city. Empty until there are some (the page then shows its own three).
 */
export async function testimonials(ctx: QueryCtx) {
  const recent = await ctx.db
    .query("reviews")
    .withIndex("by_rating", (q) => q.eq("rating", 5))
    .order("desc")
    .take(TESTIMONIAL_SCAN);
  const shown = [];
  for (const r of recent) {
    if (shown.length === TESTIMONIALS_SHOWN) break;
    const comment = r.comment?.trim() ?? "";
    if (r.held || comment.length < TESTIMONIAL_MIN_CHARS) continue;
    const [booking, customer, pro] = await Promise.all([
      ctx.db.get("bookings", r.bookingId),
      ctx.db.get("users", r.customerId),
      ctx.db.get("professionals", r.professionalId),
    ]);
    const proUser = pro && (await ctx.db.get("users", pro.userId));
    if (!booking || !proUser || proUser.suspended || pro.verification.status !== "verified")
      continue;
    shown.push({
      _id: r._id,
      comment,
      customerName: shortName(customer?.name),
      specialty: SPECIALTIES.find((s) => s.slug === pro.specialty)?.name ?? "",
      city: booking.city,
    });
  }
  return shown;
}

/** A review as the public profile lists it: reviewer as first name and initial, the professional's reply. */
async function publicReview(ctx: QueryCtx, r: Doc<"reviews">) {
  return {
    _id: r._id,
    rating: r.rating,
    comment: r.comment ?? null,
    customerName: shortName((await ctx.db.get("users", r.customerId))?.name),
    at: r._creationTime,
    reply: r.reply ?? null,
  };
}

/** A professional's reviews, newest first, a page at a time. */
export async function pageForProfessional(
  ctx: QueryCtx,
  professionalId: Id<"professionals">,
  paginationOpts: PaginationOptions,
) {
  const page = await ctx.db
    .query("reviews")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
    .order("desc")
    .paginate(paginationOpts);
  // a held review is left out: a page may come short, and the next one follows on
  const shown = page.page.filter((r) => !r.held);
  return { ...page, page: await Promise.all(shown.map((r) => publicReview(ctx, r))) };
}

/** How many reviews gave each of 1–5 stars (the newest DISTRIBUTION_SCAN). */
export async function distribution(ctx: QueryCtx, professionalId: Id<"professionals">) {
  const reviews = await ctx.db
    .query("reviews")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
    .order("desc")
    .take(DISTRIBUTION_SCAN);
  const counts = [0, 0, 0, 0, 0];
  for (const r of reviews) if (!r.held) counts[r.rating - 1]++;
  return counts.map((count, i) => ({ stars: i + 1, count }));
}
const DISTRIBUTION_SCAN = 1000;

/** The reviewed professional answers a review once; the reviewer is notified. */
export async function reply(
  ctx: MutationCtx,
  professional: Doc<"users">,
  args: { reviewId: Id<"reviews">; text: string },
): Promise<void> {
  const text = args.text.trim();
  if (text.length < 2) fail("INVALID_INPUT", "Please write a reply.");
  if (text.length > MAX_COMMENT)
    fail("COMMENT_TOO_LONG", `The reply may be at most ${MAX_COMMENT} characters.`);
  const review = await ctx.db.get("reviews", args.reviewId);
  const pro = review === null ? null : await ctx.db.get("professionals", review.professionalId);
  if (review === null || pro === null || pro.userId !== professional._id)
    fail("NOT_FOUND", "This review was not found.");
  if (review.reply !== undefined)
    fail("ALREADY_REPLIED", "You have already replied to this review.");
  await ctx.db.patch("reviews", review._id, { reply: { text, at: Date.now() } });
}

/** A review as the admin's booking and report pages show it. */
export function reviewForAdmin(review: Doc<"reviews">) {
  return {
    rating: review.rating,
    comment: review.comment ?? null,
    reply: review.reply?.text ?? null,
    at: review._creationTime,
  };
}
