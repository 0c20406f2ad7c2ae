/**
 * Cash on completion: the professional records the cash they received, which must be the bill's
 * total (recordPayment refuses any other amount: the bill is what both sides agreed, and a change
 * goes through the bill, not through the cash); the customer confirms it, which books it in the
 * ledger, or disputes it, which opens a report in the admin's queue and books nothing. Cash nobody
 * answers is confirmed by the scheduled run CASH_AUTO_CONFIRM_MS after it was recorded.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { CASH_AUTO_CONFIRM_MS } from "../rules/ledger";
import { formatPaisa } from "../rules/money";
import { fail } from "./errors";
import { confirmCash, paymentOf, recordPayment } from "./ledger";
import { notify } from "./notifications";
import * as Reports from "./reports";

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

/** Scheduled: cash its customer neither confirmed nor disputed in time is confirmed. */
export async function autoConfirm(ctx: MutationCtx, paymentId: Id<"payments">): Promise<void> {
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
