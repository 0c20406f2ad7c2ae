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

/** Payments read per run of the receipt backfill: each may write one receipt. */
export const BACKFILL_PAGE_SIZE = 100;

/** Whether a payment is booked as paid: a wallet's once recorded, cash once confirmed. */
const isPaid = (payment: Doc<"payments">) =>
  payment.cash === undefined || payment.cash.state === "confirmed";

/**
 * One page of the receipt backfill: the page's paid payments without a receipt get one (bookings
 * paid before receipts existed), in the order they were paid. Answers the next page's cursor, or
 * null when every payment was read. Safe to run again: a payment's receipt is issued once.
 */
export async function backfillPage(
  ctx: MutationCtx,
  cursor: string | null,
  numItems: number,
): Promise<string | null> {
  const page = await ctx.db.query("payments").order("asc").paginate({ cursor, numItems });
  for (const payment of page.page) if (isPaid(payment)) await issueReceipt(ctx, payment);
  return page.isDone ? null : page.continueCursor;
}
