/**
 * Receipts: every paid booking gets one, numbered in order, as its payment is booked in the ledger
 * (model/ledger.ts). What they show, and to whom: model/receiptView.ts.
 */
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

/** Issues the payment's receipt; a payment has one. */
export async function issueReceipt(ctx: MutationCtx, payment: Doc<"payments">): Promise<void> {
  const existing = await ctx.db
    .query("receipts")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", payment.bookingId))
    .first();
  if (existing !== null) return;
  const last = await ctx.db.query("receipts").withIndex("by_number").order("desc").first();
  await ctx.db.insert("receipts", {
    bookingId: payment.bookingId,
    paymentId: payment._id,
    number: (last?.number ?? 0) + 1,
  });
}
