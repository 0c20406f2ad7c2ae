/**
 * Reports: the customer or the professional of a booking reports the booking, or the review written
 * on it; an admin resolves each with a note the reporter reads. One open report per reporter and
 * target; a bounded number per reporter an hour (rules/limits.ts RATE_LIMITS.report).
 */
import type { PaginationOptions } from "convex/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import {
  lengthProblem,
  MODERATION_FIELDS,
  type ReportCategory,
  type ReportStatus,
  type ReportTarget,
} from "../rules/moderation";
import { RATE_LIMITS } from "../rules/limits";
import { fail } from "./errors";
import { reviewForAdmin } from "./reviews";
import { consume } from "./rateLimit";
import { loader, view } from "./bookings";
import { blockSender, context as chatContext } from "./chat";

/** Reports one reporter has on one booking (few: one open per target, each refused past the limit). */
const PER_BOOKING_SCAN = 50;
/** The sidebar shows "99+" beyond this. */
export const OPEN_COUNT_CAP = 100;

function partyTo(viewer: Doc<"users">, booking: Doc<"bookings">): boolean {
  return viewer._id === booking.customerId || viewer._id === booking.professionalUserId;
}

async function reportsOn(ctx: QueryCtx, reporterId: Id<"users">, bookingId: Id<"bookings">) {
  return await ctx.db
    .query("reports")
    .withIndex("by_reporterId_and_bookingId", (q) =>
      q.eq("reporterId", reporterId).eq("bookingId", bookingId),
    )
    .take(PER_BOOKING_SCAN);
}

export async function create(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  args: {
    bookingId: Id<"bookings">;
    target: ReportTarget;
    category: ReportCategory;
    text: string;
    messageId?: Id<"chatMessages">;
  },
): Promise<Id<"reports">> {
  const booking = await ctx.db.get("bookings", args.bookingId);
  // someone else's booking answers as a missing one
  if (booking === null || !partyTo(viewer, booking))
    fail("NOT_FOUND", "This booking was not found.");
  let reviewId: Id<"reviews"> | undefined;
  if (args.target === "review") {
    const review = await ctx.db
      .query("reviews")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", booking._id))
      .first();
    if (review === null) fail("NOT_FOUND", "This booking has no review to report.");
    reviewId = review._id;
  }
  let messageId: Id<"chatMessages"> | undefined;
  if (args.target === "message") {
    const message =
      args.messageId === undefined ? null : await ctx.db.get("chatMessages", args.messageId);
    // only the other side's messages in this booking's conversation
    if (message === null || message.bookingId !== booking._id || message.senderId === viewer._id)
      fail("NOT_FOUND", "This message was not found.");
    messageId = message._id;
  }
  const problem = lengthProblem(args.text, MODERATION_FIELDS.reportText, "a description");
  if (problem !== undefined) fail("INVALID_INPUT", problem.message);
  // a cash dispute is a report of its own: an open report on the booking does not stop it, nor it one
  const dispute = args.category === "cash_dispute";
  const open = (await reportsOn(ctx, viewer._id, booking._id)).find(
    (r) =>
      r.status === "open" &&
      r.reviewId === reviewId &&
      r.messageId === messageId &&
      (r.category === "cash_dispute") === dispute,
  );
  if (open !== undefined) {
    fail(
      "REPORT_OPEN",
      "You already reported this and the report is still open. GharSewa will answer it.",
      { reportId: open._id },
    );
  }
  await consume(
    ctx,
    {
      action: "report",
      scope: "perUser",
      actor: viewer._id,
      allowance: RATE_LIMITS.report.perUser,
    },
    "Too many reports",
  );
  return await ctx.db.insert("reports", {
    reporterId: viewer._id,
    bookingId: booking._id,
    ...(reviewId !== undefined ? { reviewId } : {}),
    ...(messageId !== undefined ? { messageId } : {}),
    category: args.category,
    text: args.text.trim(),
    status: "open",
  });
}

function targetOf(r: Doc<"reports">): ReportTarget {
  if (r.messageId !== undefined) return "message";
  return r.reviewId === undefined ? "booking" : "review";
}

function reporterView(r: Doc<"reports">) {
  return {
    _id: r._id,
    _creationTime: r._creationTime,
    target: targetOf(r),
    category: r.category,
    text: r.text,
    status: r.status,
    resolvedAt: r.resolution?.at ?? null,
    resolutionNote: r.resolution?.note ?? null,
  };
}

/** The viewer's own reports on a booking, newest first (null: not their booking). */
export async function mineOn(ctx: QueryCtx, viewer: Doc<"users">, bookingId: Id<"bookings">) {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || !partyTo(viewer, booking)) return null;
  const rows = await reportsOn(ctx, viewer._id, bookingId);
  return rows.reverse().map(reporterView);
}

/** The admin's queue: reports in `status`, newest first. */
export async function page(ctx: QueryCtx, status: ReportStatus, paginationOpts: PaginationOptions) {
  const result = await ctx.db
    .query("reports")
    .withIndex("by_status", (q) => q.eq("status", status))
    .order("desc")
    .paginate(paginationOpts);
  return {
    ...result,
    page: await Promise.all(
      result.page.map(async (r) => {
        const reporter = await ctx.db.get("users", r.reporterId);
        return {
          ...reporterView(r),
          bookingId: r.bookingId,
          reporter: { _id: r.reporterId, name: reporter?.name ?? "", role: reporter?.role ?? null },
        };
      }),
    ),
  };
}

export async function openCount(ctx: QueryCtx): Promise<number> {
  const rows = await ctx.db
    .query("reports")
    .withIndex("by_status", (q) => q.eq("status", "open"))
    .take(OPEN_COUNT_CAP);
  return rows.length;
}

/** One report for the admin, with what it is about: the booking, the review, both parties. */
export async function detail(ctx: QueryCtx, admin: Doc<"users">, reportId: Id<"reports">) {
  const report = await ctx.db.get("reports", reportId);
  if (report === null) return null;
  const [booking, review, reporter, resolver] = await Promise.all([
    ctx.db.get("bookings", report.bookingId),
    report.reviewId === undefined ? null : ctx.db.get("reviews", report.reviewId),
    ctx.db.get("users", report.reporterId),
    report.resolution === undefined ? null : ctx.db.get("users", report.resolution.by),
  ]);
  const [customer, proUser] =
    booking === null
      ? [null, null]
      : await Promise.all([
          ctx.db.get("users", booking.customerId),
          ctx.db.get("users", booking.professionalUserId),
        ]);
  return {
    ...reporterView(report),
    reporter: { _id: report.reporterId, name: reporter?.name ?? "", role: reporter?.role ?? null },
    resolvedBy: resolver?.name ?? null,
    booking: booking === null ? null : await view(ctx, loader(ctx), booking, admin),
    parties:
      booking === null
        ? null
        : {
            customer: partyState(booking.customerId, customer),
            professional: partyState(booking.professionalUserId, proUser),
          },
    review: review === null ? null : reviewForAdmin(review),
    messages: report.messageId === undefined ? null : await chatContext(ctx, report.messageId),
    upheld: report.upheld === true,
  };
}

function partyState(userId: Id<"users">, user: Doc<"users"> | null) {
  return { userId, name: user?.name ?? "", suspended: user?.suspended !== undefined };
}

export async function resolve(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: { reportId: Id<"reports">; note: string; uphold?: boolean },
): Promise<void> {
  const report = await ctx.db.get("reports", args.reportId);
  if (report === null) fail("NOT_FOUND", "This report was not found.");
  const problem = lengthProblem(args.note, MODERATION_FIELDS.resolutionNote, "a note");
  if (problem !== undefined) fail("INVALID_INPUT", problem.message);
  if (report.status === "resolved") return; // a retry, or another admin was first
  if (report.category === "cash_dispute")
    fail("CASH_DISPUTE_OPEN", "Settle the disputed cash: confirm it was paid, or waive it.");
  const uphold = args.uphold === true && report.messageId !== undefined;
  await close(ctx, admin, report._id, args.note, uphold);
  if (uphold) await blockSender(ctx, report.messageId!);
}

/** Marks a report resolved with the admin's note, which its reporter reads. */
export async function close(
  ctx: MutationCtx,
  admin: Doc<"users">,
  reportId: Id<"reports">,
  note: string,
  upheld = false,
): Promise<void> {
  await ctx.db.patch("reports", reportId, {
    status: "resolved",
    resolution: { by: admin._id, at: Date.now(), note: note.trim() },
    ...(upheld ? { upheld: true } : {}),
  });
}
