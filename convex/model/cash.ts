/**
 * Cash on completion: the professional records the cash they received, which must be the bill's
 * total (recordPayment refuses any other amount: the bill is what both sides agreed, and a change
 * goes through the bill, not through the cash); the customer confirms it, which books it in the
 * ledger, or disputes it, which opens a report in the admin's queue and books nothing. Cash nobody
 * answers is confirmed by the scheduled run CASH_AUTO_CONFIRM_MS after it was recorded.
 *
 * A booking cancelled while its cash is unconfirmed (an admin cancels a job under way): the customer
 * says whether they paid it. Confirmed, it is booked and owed back (a refund); "I did not pay" waives
 * it; a wrong amount is disputed as ever. Nobody answering means no cash moved: it lapses, waived.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { CASH_AUTO_CONFIRM_MS } from "../rules/ledger";
import { formatPaisa } from "../rules/money";
import { fail } from "./errors";
import { confirmCash, paymentOf, recordPayment } from "./ledger";
import { billOf } from "./bill";
import { notify } from "./notifications";
import { refundOnCancel } from "./refunds";
import * as Reports from "./reports";
import { hasFee } from "../rules/bill";

const MISSING = "This booking was not found.";

/** The professional received the bill's total in cash; the customer is asked to confirm it. */
export async function markReceived(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  args: { bookingId: Id<"bookings">; amountPaisa: number },
): Promise<void> {
  const booking = await ctx.db.get("bookings", args.bookingId);
  // someone else's booking answers as a missing one
  if (booking === null || booking.professionalUserId !== viewer._id) fail("NOT_FOUND", MISSING);
  const result = await recordPayment(ctx, {
    bookingId: booking._id,
    method: "cash",
    amountPaisa: args.amountPaisa,
    reference: `cash:${booking._id}`,
  });
  const payment = (await paymentOf(ctx, booking._id))!;
  if (result === "duplicate") {
    fail(
      "ALREADY_PAID",
      payment.method === "cash"
        ? "You already recorded the cash for this booking."
        : "This booking is already paid.",
    );
  }
  await ctx.scheduler.runAfter(CASH_AUTO_CONFIRM_MS, internal.cash.autoConfirm, {
    paymentId: payment._id,
  });
  await notify(ctx, {
    userId: booking.customerId,
    kind: "cash.recorded",
    title: "Confirm your cash payment",
    body: `${viewer.name ?? "The professional"} recorded ${formatPaisa(args.amountPaisa)} received in cash. Confirm it, or tell us if it is wrong.`,
    params: {
      actor: viewer.name ?? "",
      actorRole: "professional",
      amount: String(args.amountPaisa),
    },
    bookingId: booking._id,
  });
}

/** The booking's customer and its cash payment still open to an answer from them. */
async function customersCash(ctx: MutationCtx, viewer: Doc<"users">, bookingId: Id<"bookings">) {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || booking.customerId !== viewer._id) fail("NOT_FOUND", MISSING);
  const payment = await paymentOf(ctx, booking._id);
  if (payment?.cash === undefined)
    fail("NOT_FOUND", "No cash payment was recorded on this booking.");
  return { booking, payment, cash: payment.cash };
}

/** The customer confirms the cash recorded; confirming again changes nothing. */
export async function confirm(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  const { booking, payment, cash } = await customersCash(ctx, viewer, bookingId);
  if (cash.state === "confirmed") return;
  if (cash.state === "disputed")
    fail("ALREADY_DECIDED", "You disputed this cash payment: GharSewa is looking into it.");
  await confirmCash(ctx, payment._id);
  if (booking.status === "cancelled") await refundOnCancel(ctx, booking);
  await notify(ctx, {
    userId: booking.professionalUserId,
    kind: "cash.confirmed",
    title: "Cash confirmed",
    body: `${viewer.name ?? "The customer"} confirmed paying ${formatPaisa(payment.amountPaisa)} in cash.`,
    params: {
      actor: viewer.name ?? "",
      actorRole: "customer",
      amount: String(payment.amountPaisa),
    },
    bookingId: booking._id,
  });
}

/** The customer disputes the cash recorded, saying what is wrong: a report for the admin. */
export async function dispute(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  args: { bookingId: Id<"bookings">; text: string },
): Promise<void> {
  const { booking, payment, cash } = await customersCash(ctx, viewer, args.bookingId);
  if (cash.state === "disputed") return;
  if (cash.state === "confirmed")
    fail("ALREADY_DECIDED", "You already confirmed this cash payment.");
  const reportId = await Reports.create(ctx, viewer, {
    bookingId: booking._id,
    target: "booking",
    category: "cash_dispute",
    text: args.text,
  });
  await ctx.db.patch("payments", payment._id, {
    cash: { state: "disputed", decidedAt: Date.now(), reportId },
  });
  await notify(ctx, {
    userId: booking.professionalUserId,
    kind: "cash.disputed",
    title: "Cash disputed",
    body: `${viewer.name ?? "The customer"} disputes the ${formatPaisa(payment.amountPaisa)} in cash you recorded. GharSewa will look into it.`,
    params: {
      actor: viewer.name ?? "",
      actorRole: "customer",
      amount: String(payment.amountPaisa),
    },
    bookingId: booking._id,
  });
}

/** Cash recorded on a booking cancelled since, which its customer would be owed back if paid. */
async function refundBound(ctx: MutationCtx, booking: Doc<"bookings">): Promise<boolean> {
  return booking.status === "cancelled" && !hasFee((await billOf(ctx, booking)).lines);
}

/**
 * The customer of a cancelled booking says they did not pay the cash recorded: nothing moved, so
 * nothing is owed either way (waived). Saying it again changes nothing.
 */
export async function notPaid(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  const { booking, payment, cash } = await customersCash(ctx, viewer, bookingId);
  if (cash.state === "waived") return;
  if (!(await refundBound(ctx, booking)))
    fail("NOT_CANCELLED", "Only the cash of a cancelled booking can be marked as not paid.");
  if (cash.state !== "awaiting") fail("ALREADY_DECIDED", "You already answered for this cash.");
  await ctx.db.patch("payments", payment._id, {
    cash: { state: "waived", decidedAt: Date.now() },
  });
  await notify(ctx, {
    userId: booking.professionalUserId,
    kind: "cash.not_paid",
    title: "Cash not paid",
    body: `${viewer.name ?? "The customer"} says the ${formatPaisa(payment.amountPaisa)} in cash was not paid before the booking was cancelled: nothing is owed.`,
    params: {
      actor: viewer.name ?? "",
      actorRole: "customer",
      amount: String(payment.amountPaisa),
    },
    bookingId: booking._id,
  });
}

/**
 * Scheduled: cash its customer neither confirmed nor disputed in time is confirmed; on a booking
 * cancelled since, it lapses (no cash moved that anyone vouches for, so no refund is owed).
 */
export async function autoConfirm(ctx: MutationCtx, paymentId: Id<"payments">): Promise<void> {
  const recorded = await ctx.db.get("payments", paymentId);
  const cancelled = recorded && (await ctx.db.get("bookings", recorded.bookingId));
  if (recorded?.cash?.state === "awaiting" && cancelled && (await refundBound(ctx, cancelled))) {
    await ctx.db.patch("payments", recorded._id, {
      cash: { state: "waived", decidedAt: Date.now() },
    });
    return;
  }
  if (!(await confirmCash(ctx, paymentId))) return;
  const payment = (await ctx.db.get("payments", paymentId))!;
  const booking = await ctx.db.get("bookings", payment.bookingId);
  if (booking === null) return;
  for (const userId of [booking.customerId, booking.professionalUserId]) {
    await notify(ctx, {
      userId,
      kind: "cash.auto_confirmed",
      title: "Cash confirmed",
      body: `The ${formatPaisa(payment.amountPaisa)} paid in cash was confirmed: nobody disputed it within 48 hours.`,
      params: { amount: String(payment.amountPaisa) },
      bookingId: booking._id,
    });
  }
}
