/**
 * A paid booking's receipt (model/receipts.ts) as its customer, its professional and admins read it;
 * anyone else is answered as if there were none.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { receiptNumber } from "../rules/receipts";
import { billOf } from "./bill";
import { canSee } from "./bookings";

/** The gateway's own id of a wallet payment (eSewa's ref_id, Khalti's transaction_id). */
async function gatewayIdOf(ctx: QueryCtx, bookingId: Id<"bookings">) {
  const attempts = await ctx.db
    .query("paymentAttempts")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .order("desc")
    .take(50);
  return attempts.find((a) => a.state === "paid")?.gatewayId ?? null;
}

/** The receipt of a booking, for its customer, its professional and admins; null for anyone else. */
export async function receiptFor(ctx: QueryCtx, viewer: Doc<"users">, bookingId: Id<"bookings">) {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || !canSee(viewer, booking)) return null;
  const receipt = await ctx.db
    .query("receipts")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", booking._id))
    .first();
  const payment = receipt && (await ctx.db.get("payments", receipt.paymentId));
  if (!receipt || !payment) return null;
  const [bill, customer, professional, gatewayId] = await Promise.all([
    billOf(ctx, booking),
    ctx.db.get("users", booking.customerId),
    ctx.db.get("users", booking.professionalUserId),
    payment.method === "cash" ? null : gatewayIdOf(ctx, booking._id),
  ]);
  return {
    number: receiptNumber(receipt.number),
    issuedAt: receipt._creationTime,
    paidAt: payment._creationTime,
    method: payment.method,
    amountPaisa: payment.amountPaisa,
    /** The payment's id in this app (eSewa's transaction_uuid, Khalti's pidx); null for cash. */
    reference: payment.method === "cash" ? null : payment.reference,
    gatewayId,
    /** Cash is paid to the professional; eSewa and Khalti to GharSewa. */
    paidTo: payment.method === "cash" ? ("professional" as const) : ("platform" as const),
    cashConfirmedAt: payment.cash?.decidedAt ?? null,
    lines: bill.lines
      .filter((l) => l.status === "approved")
      .map((l) => ({ kind: l.kind, label: l.label, amountPaisa: l.amountPaisa })),
    totalPaisa: bill.totalPaisa,
    jobAt: booking.scheduledFor,
    city: booking.city,
    customerName: customer?.name ?? null,
    professionalName: professional?.name ?? null,
  };
}
