/**
 * The start codes of arrived bookings (rules/startCode.ts), as stored: one row per arrived booking,
 * made when the professional arrives and deleted when the job starts. model/jobStart.ts checks them.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { START_CODE, startCodeSpent, triesLeft } from "../rules/startCode";
import { newCode } from "./accountCodes";

export async function startCodeOf(ctx: QueryCtx, bookingId: Id<"bookings">) {
  return await ctx.db
    .query("startCodes")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .unique();
}

/** A fresh random code for a booking whose professional just arrived. */
export async function issueStartCode(ctx: MutationCtx, bookingId: Id<"bookings">) {
  await endStartCode(ctx, bookingId);
  await ctx.db.insert("startCodes", {
    bookingId,
    code: newCode(START_CODE.digits),
    wrongTries: 0,
  });
}

/** The job started (or the booking closed): its code can never be used again. */
export async function endStartCode(ctx: MutationCtx, bookingId: Id<"bookings">) {
  const row = await startCodeOf(ctx, bookingId);
  if (row !== null) await ctx.db.delete("startCodes", row._id);
}

/**
 * What the booking's screens show while it waits to start: the code to its customer alone (until it
 * is spent), the tries left to everyone who may see the booking.
 */
export async function startCodeView(ctx: QueryCtx, booking: Doc<"bookings">, viewer: Doc<"users">) {
  if (booking.status !== "arrived") return null;
  const row = await startCodeOf(ctx, booking._id);
  const wrong = row?.wrongTries ?? START_CODE.tries;
  const spent = startCodeSpent(wrong);
  return {
    code: viewer._id === booking.customerId && !spent && row !== null ? row.code : null,
    triesLeft: triesLeft(wrong),
    spent,
  };
}
