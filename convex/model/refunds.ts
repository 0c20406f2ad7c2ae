/**
 * Refunds of cancelled paid bookings. When a booking whose payment is booked in the ledger is
 * cancelled, the whole payment is owed back (only an admin or a suspension cancels a job under way,
 * the one state a booking is paid in before it is done): `refund:<paymentId>` moves it from the
 * customer's account to refunds_due. The admin refunds it in the gateway's merchant portal (eSewa and
 * Khalti have no refund call for merchants of this kind) or in cash, and records the reference:
 * `refunded:<refundId>` pays refunds_due out of the platform's funds, or out of the cash the
 * professional holds for a cash job.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { hasFee } from "../rules/bill";
import { formatPaisa } from "../rules/money";
import { referenceProblem } from "../rules/payouts";
import { billOf } from "./bill";
import { fail } from "./errors";
import { paymentOf, post } from "./ledger";
import { notify } from "./notifications";

/** Refunds listed at once for the admin: a handful are due on any day. */
const MAX_LISTED = 100;

export async function refundOf(ctx: QueryCtx, bookingId: Id<"bookings">) {
  return await ctx.db
    .query("refunds")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .first();
}

/**
 * A booking was cancelled: a payment booked in the ledger is owed back to its customer, once. Cash
 * still unconfirmed is owed back once its customer confirms paying it (model/cash.ts); the payment
 * of a late-cancellation fee is never refunded.
 */
export async function refundOnCancel(ctx: MutationCtx, booking: Doc<"bookings">): Promise<void> {
  const payment = await paymentOf(ctx, booking._id);
  if (payment === null || hasFee((await billOf(ctx, booking)).lines)) return;
  // cash the customer has not confirmed is not booked: nothing was paid as far as the ledger knows,
  // so its customer is asked whether they paid it (model/cash.ts notPaid, confirm)
  if (payment.cash?.state === "awaiting") {
    await notify(ctx, {
      userId: booking.customerId,
      kind: "cash.cancelled",
      title: "Did you pay in cash?",
      body: `The booking was cancelled. If you paid the ${formatPaisa(payment.amountPaisa)} in cash, confirm it and GharSewa refunds it; if you did not, say so.`,
      params: { amount: String(payment.amountPaisa) },
      bookingId: booking._id,
    });
  }
  if (payment.cash !== undefined && payment.cash.state !== "confirmed") return;
  if ((await refundOf(ctx, booking._id)) !== null) return;
  const refundId = await ctx.db.insert("refunds", {
    bookingId: booking._id,
    paymentId: payment._id,
    customerId: booking.customerId,
    professionalId: booking.professionalId,
    method: payment.method,
    amountPaisa: payment.amountPaisa,
    state: "due",
  });
  await post(ctx, {
    txId: `refund:${payment._id}`,
    kind: "refund",
    bookingId: booking._id,
    customerId: booking.customerId,
    professionalId: booking.professionalId,
    method: payment.method,
    reference: refundId,
    entries: [
      { account: "customer", amountPaisa: payment.amountPaisa },
      { account: "refunds_due", amountPaisa: -payment.amountPaisa },
    ],
  });
  await notify(ctx, {
    userId: booking.customerId,
    kind: "refund.due",
    title: "Your payment will be refunded",
    body: `The booking was cancelled: GharSewa refunds the ${formatPaisa(payment.amountPaisa)} you paid.`,
    params: { amount: String(payment.amountPaisa) },
    bookingId: booking._id,
  });
}

/** Refunds still due, oldest first, with the customer's name. */
export async function dueRefunds(ctx: QueryCtx) {
  const rows = await ctx.db
    .query("refunds")
    .withIndex("by_state", (q) => q.eq("state", "due"))
    .take(MAX_LISTED);
  return await Promise.all(
    rows.map(async (r) => ({
      refundId: r._id,
      bookingId: r.bookingId,
      method: r.method,
      amountPaisa: r.amountPaisa,
      dueSince: r._creationTime,
      customerName: (await ctx.db.get("users", r.customerId))?.name ?? "",
    })),
  );
}

/**
 * The admin refunded the customer and records the refund's reference. Recording a refunded refund
 * again changes nothing (a second click, or another admin was first).
 */
export async function markRefunded(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: { refundId: Id<"refunds">; reference: string },
): Promise<void> {
  const refund = await ctx.db.get("refunds", args.refundId);
  if (refund === null) fail("NOT_FOUND", "This refund was not found.");
  const problem = referenceProblem(args.reference);
  if (problem !== null) fail("INVALID_INPUT", problem);
  if (refund.state === "refunded") return;
  const reference = args.reference.trim();
  await ctx.db.patch("refunds", refund._id, {
    state: "refunded",
    reference,
    refundedAt: Date.now(),
    adminId: admin._id,
  });
  await post(ctx, {
    txId: `refunded:${refund._id}`,
    kind: "refund",
    bookingId: refund.bookingId,
    customerId: refund.customerId,
    professionalId: refund.professionalId,
    method: refund.method,
    reference,
    entries: [
      { account: "refunds_due", amountPaisa: refund.amountPaisa },
      {
        account: refund.method === "cash" ? "professional_cash" : "platform_funds",
        amountPaisa: -refund.amountPaisa,
      },
    ],
  });
  await notify(ctx, {
    userId: refund.customerId,
    kind: "refund.paid",
    title: "Refund sent",
    body: `GharSewa refunded the ${formatPaisa(refund.amountPaisa)} you paid (reference ${reference}).`,
    params: { amount: String(refund.amountPaisa), reference },
    bookingId: refund.bookingId,
  });
}
