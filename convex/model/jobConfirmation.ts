/**
 * The customer's word that a job is done (rules/bookingLifecycle.ts COMPLETION): the professional's
 * "complete" leaves a booking completed but unconfirmed; the customer confirms it, or the scheduled
 * confirmation does after COMPLETION.autoConfirmAfterMs. Reviews wait for it (model/reviews.ts).
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { COMPLETION, implausiblyFast } from "../rules/bookingLifecycle";
import { fail } from "./errors";

/** Called as the professional marks the work done. */
export async function scheduleAutoConfirm(ctx: MutationCtx, bookingId: Id<"bookings">) {
  await ctx.scheduler.runAfter(COMPLETION.autoConfirmAfterMs, internal.bookings.autoConfirm, {
    bookingId,
  });
}

/** The booking's customer says the job is done; saying it again changes nothing. */
export async function confirm(
  ctx: MutationCtx,
  customer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  const booking = await ctx.db.get("bookings", bookingId);
  // someone else's booking answers as a missing one
  if (booking === null || booking.customerId !== customer._id)
    fail("NOT_FOUND", "This booking was not found.");
  if (booking.confirmedBy !== undefined) return;
  if (booking.status !== "completed")
    fail("NOT_COMPLETED", "You can confirm a job once the professional has marked it done.");
  const now = Date.now();
  await ctx.db.patch("bookings", booking._id, {
    confirmedBy: "customer",
    confirmedAt: now,
    updatedAt: now,
  });
}

/** The scheduled confirmation of a job its customer said nothing about. */
export async function autoConfirm(ctx: MutationCtx, bookingId: Id<"bookings">): Promise<void> {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || booking.status !== "completed" || booking.confirmedBy !== undefined)
    return;
  const now = Date.now();
  await ctx.db.patch("bookings", booking._id, {
    confirmedBy: "system",
    confirmedAt: now,
    updatedAt: now,
  });
}

/**
 * Whether the job went from accepted to work done implausibly fast. Bookings from before the
 * booking kept these times are read from their events; a job without both is taken as fast.
 */
export async function wasImplausiblyFast(
  ctx: QueryCtx,
  booking: Doc<"bookings">,
): Promise<boolean> {
  let { acceptedAt, workDoneAt } = booking;
  if (acceptedAt === undefined || workDoneAt === undefined) {
    const events = await ctx.db
      .query("bookingEvents")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", booking._id))
      .take(20);
    acceptedAt ??= events.find((e) => e.to === "accepted")?._creationTime;
    workDoneAt ??= events.find((e) => e.to === "completed")?._creationTime;
  }
  return acceptedAt === undefined || workDoneAt === undefined
    ? true
    : implausiblyFast(acceptedAt, workDoneAt);
}
