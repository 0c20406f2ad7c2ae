/**
 * A booking's bill: its stored lines (rules/bill.ts). The confirmed price is written at booking; the
 * professional proposes site lines (parts, extra work, the quote of a service priced on inspection)
 * and the customer approves or declines each. Every total is computed here from the stored lines.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import {
  BILL_LIMITS,
  EDITABLE_STATUSES,
  billTotal,
  type BillLine,
  type SiteLineKind,
} from "../rules/bill";
import { amountProblem, formatPaisa, rupeesToPaisa } from "../rules/money";
import { fail } from "./errors";
import { notify } from "./notifications";

export type { BillLine };

/** More lines than any bill may hold (the booked services, the visit, the site lines). */
const MAX_LINES = 40;

async function linesOf(ctx: QueryCtx, bookingId: Id<"bookings">) {
  return await ctx.db
    .query("billLines")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .take(MAX_LINES);
}

async function paymentOf(ctx: QueryCtx, bookingId: Id<"bookings">) {
  return await ctx.db
    .query("payments")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .first();
}

/** The bill as the server counts it: approved lines only. */
export async function billOf(
  ctx: QueryCtx,
  booking: Doc<"bookings">,
): Promise<{ totalPaisa: number; lines: BillLine[]; paid: boolean }> {
  const [rows, payment] = await Promise.all([
    linesOf(ctx, booking._id),
    paymentOf(ctx, booking._id),
  ]);
  const lines = rows.map((r) => ({
    kind: r.kind,
    label: r.label,
    amountPaisa: r.amountPaisa,
    status: r.status,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
  }));
  return { totalPaisa: billTotal(lines), lines, paid: payment !== null };
}

/**
 * The bill's opening lines, at booking: each service priced in the catalogue for the booking's city
 * (a service priced on inspection, 0 there, waits for a quote) and the visit charge.
 */
export async function openBill(
  ctx: MutationCtx,
  bookingId: Id<"bookings">,
  services: readonly { name: string; price: number }[],
  visitChargeNrs: number,
): Promise<void> {
  for (const s of services) {
    if (s.price <= 0) continue;
    await ctx.db.insert("billLines", {
      bookingId,
      kind: "service",
      label: s.name,
      amountPaisa: rupeesToPaisa(s.price),
      status: "approved",
    });
  }
  if (visitChargeNrs > 0) {
    await ctx.db.insert("billLines", {
      bookingId,
      kind: "visit",
      label: "Visit charge",
      amountPaisa: rupeesToPaisa(visitChargeNrs),
      status: "approved",
    });
  }
}

/** The customer cancelled late: the booking's bill becomes the fee (rules/cancellation.ts). */
export async function billLateCancelFee(
  ctx: MutationCtx,
  bookingId: Id<"bookings">,
  feePaisa: number,
): Promise<void> {
  await ctx.db.insert("billLines", {
    bookingId,
    kind: "fee",
    label: "Late cancellation fee",
    amountPaisa: feePaisa,
    status: "approved",
  });
}

/** The booking the viewer is a party to (as `side`), else NOT_FOUND as if it did not exist. */
async function ownBooking(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
  side: "customer" | "professional",
  missing = "This booking was not found.",
) {
  const booking = await ctx.db.get("bookings", bookingId);
  const owner = side === "customer" ? booking?.customerId : booking?.professionalUserId;
  if (booking === null || owner !== viewer._id) fail("NOT_FOUND", missing);
  return booking;
}

function requireEditable(booking: Doc<"bookings">) {
  if (!EDITABLE_STATUSES.includes(booking.status))
    fail("BILL_CLOSED", "The bill can change only while the job is in progress.");
}

/** The professional adds a part, extra work or a quote on site; it counts once the customer approves it. */
export async function proposeLine(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  args: {
    bookingId: Id<"bookings">;
    kind: SiteLineKind;
    label: string;
    amountPaisa: number;
    reason: string;
  },
): Promise<Id<"billLines">> {
  const booking = await ownBooking(ctx, viewer, args.bookingId, "professional");
  requireEditable(booking);
  const label = args.label.trim();
  const reason = args.reason.trim();
  const { label: L, reason: R } = BILL_LIMITS;
  if (label.length < L.min || label.length > L.max)
    fail("INVALID_INPUT", `Name the item in ${L.min} to ${L.max} characters.`);
  if (reason.length < R.min || reason.length > R.max)
    fail("INVALID_INPUT", `Give the reason in ${R.min} to ${R.max} characters.`);
  const problem = amountProblem(args.amountPaisa);
  if (problem !== null) fail("INVALID_AMOUNT", problem);
  const [bill, rows] = await Promise.all([billOf(ctx, booking), linesOf(ctx, booking._id)]);
  if (bill.paid) fail("ALREADY_PAID", "This booking is paid: its bill cannot change.");
  const siteLines = rows.filter((r) => r.kind !== "service" && r.kind !== "visit").length;
  if (siteLines >= BILL_LIMITS.siteLines || rows.length >= MAX_LINES)
    fail("TOO_MANY_LINES", `A bill may hold at most ${BILL_LIMITS.siteLines} added items.`);
  const lineId = await ctx.db.insert("billLines", {
    bookingId: booking._id,
    kind: args.kind,
    label,
    amountPaisa: args.amountPaisa,
    status: "proposed",
    reason,
  });
  await notify(ctx, {
    userId: booking.customerId,
    kind: "bill.proposed",
    title: args.kind === "quote" ? "A quote to answer" : "An item to approve",
    body: `${viewer.name ?? "The professional"} added ${label} (${formatPaisa(args.amountPaisa)}) to your bill: ${reason}`,
    params: { actor: viewer.name ?? "", item: label, amount: String(args.amountPaisa) },
    bookingId: booking._id,
  });
  return lineId;
}

/** The customer approves or declines a proposed line; a second answer changes nothing. */
export async function decideLine(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  args: { lineId: Id<"billLines">; approve: boolean },
): Promise<void> {
  const missing = "This item was not found.";
  const line = await ctx.db.get("billLines", args.lineId);
  if (line === null) fail("NOT_FOUND", missing);
  // someone else's item answers as a missing one
  const booking = await ownBooking(ctx, viewer, line.bookingId, "customer", missing);
  if (line.status !== "proposed") {
    if (line.status === (args.approve ? "approved" : "declined")) return;
    fail("ALREADY_DECIDED", "You already answered this item.");
  }
  requireEditable(booking);
  if ((await billOf(ctx, booking)).paid)
    fail("ALREADY_PAID", "This booking is paid: its bill cannot change.");
  await ctx.db.patch("billLines", line._id, {
    status: args.approve ? "approved" : "declined",
    decidedAt: Date.now(),
  });
  await notify(ctx, {
    userId: booking.professionalUserId,
    kind: args.approve ? "bill.approved" : "bill.declined",
    title: args.approve ? "Item approved" : "Item declined",
    body: `${viewer.name ?? "The customer"} ${args.approve ? "approved" : "declined"} ${line.label} (${formatPaisa(line.amountPaisa)}).`,
    params: { actor: viewer.name ?? "", item: line.label, amount: String(line.amountPaisa) },
    bookingId: booking._id,
  });
}

/** The bill's lines with their ids and the payment, for the booking's two parties and admins. */
export async function billView(ctx: QueryCtx, booking: Doc<"bookings">) {
  const [rows, payment, refund] = await Promise.all([
    linesOf(ctx, booking._id),
    paymentOf(ctx, booking._id),
    ctx.db
      .query("refunds")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", booking._id))
      .first(),
  ]);
  return {
    lines: rows.map((r) => ({
      _id: r._id,
      kind: r.kind,
      label: r.label,
      amountPaisa: r.amountPaisa,
      status: r.status,
      reason: r.reason ?? null,
    })),
    totalPaisa: billTotal(rows),
    /** Services priced on inspection wait for an accepted quote. */
    onInspection: booking.services.some((s) => s.price <= 0),
    payment:
      payment === null
        ? null
        : {
            method: payment.method,
            reference: payment.reference,
            amountPaisa: payment.amountPaisa,
            at: payment._creationTime,
            cash: payment.cash?.state ?? null,
          },
    refund:
      refund === null
        ? null
        : {
            state: refund.state,
            amountPaisa: refund.amountPaisa,
            reference: refund.reference ?? null,
            refundedAt: refund.refundedAt ?? null,
          },
  };
}
