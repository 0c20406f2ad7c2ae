/**
 * An admin settles a cash payment its customer disputed (model/cash.ts): "paid" books it as the
 * customer's confirmation would (ledger, receipt, the commission once the job is done); "waived"
 * books nothing and nobody owes it. Either way the dispute's report is resolved with the admin's
 * reason, which both sides are sent.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { DisputeOutcome } from "../rules/ledger";
import { lengthProblem, MODERATION_FIELDS } from "../rules/moderation";
import { formatPaisa } from "../rules/money";
import { fail } from "./errors";
import { confirmCash, paymentOf } from "./ledger";
import { notify } from "./notifications";
import { refundOnCancel } from "./refunds";
import { close } from "./reports";

/** Disputes listed at once: a handful are open on any day. */
const MAX_LISTED = 100;

/** Open cash disputes, oldest first, with the booking's parties and what the customer wrote. */
export async function openDisputes(ctx: QueryCtx) {
  const rows = await ctx.db
    .query("payments")
    .withIndex("by_cashState", (q) => q.eq("cash.state", "disputed"))
    .take(MAX_LISTED);
  return await Promise.all(
    rows.map(async (p) => {
      const [customer, pro, report] = await Promise.all([
        ctx.db.get("users", p.customerId),
        ctx.db.get("professionals", p.professionalId),
        p.cash?.reportId ? ctx.db.get("reports", p.cash.reportId) : null,
      ]);
      const proUser = pro && (await ctx.db.get("users", pro.userId));
      return {
        paymentId: p._id,
        bookingId: p.bookingId,
        reportId: p.cash?.reportId ?? null,
        amountPaisa: p.amountPaisa,
        disputedAt: p.cash?.decidedAt ?? p._creationTime,
        customerName: customer?.name ?? "",
        professionalName: proUser?.name ?? "",
        text: report?.text ?? "",
      };
    }),
  );
}

/** The cash payment a booking's dispute report is about, with the report. */
async function disputeOf(ctx: QueryCtx, reportId: Id<"reports">) {
  const report = await ctx.db.get("reports", reportId);
  const payment = report && (await paymentOf(ctx, report.bookingId));
  if (!report || report.category !== "cash_dispute" || payment?.cash?.reportId !== report._id)
    fail("NOT_FOUND", "This cash dispute was not found.");
  return { report, payment, cash: payment.cash };
}

/**
 * Settles the dispute of report `reportId`. Settling a settled dispute changes nothing (a retry, or
 * another admin was first: the page shows how it was settled).
 */
export async function settle(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: { reportId: Id<"reports">; outcome: DisputeOutcome; reason: string },
): Promise<void> {
  const { report, payment, cash } = await disputeOf(ctx, args.reportId);
  const problem = lengthProblem(args.reason, MODERATION_FIELDS.resolutionNote, "a reason");
  if (problem !== undefined) fail("INVALID_INPUT", problem.message);
  if (cash.state !== "disputed") return;
  if (args.outcome === "paid") {
    await confirmCash(ctx, payment._id, "disputed", admin._id);
  } else {
    await ctx.db.patch("payments", payment._id, {
      cash: { ...cash, state: "waived", decidedAt: Date.now(), settledBy: admin._id },
    });
  }
  await close(ctx, admin, report._id, args.reason);
  const booking = await ctx.db.get("bookings", payment.bookingId);
  if (booking === null) return;
  // cash paid on a booking cancelled since is owed back
  if (args.outcome === "paid" && booking.status === "cancelled") await refundOnCancel(ctx, booking);
  const reason = args.reason.trim();
  const amount = formatPaisa(payment.amountPaisa);
  for (const userId of [booking.customerId, booking.professionalUserId]) {
    await notify(ctx, {
      userId,
      kind: "cash.settled",
      title: "Cash dispute settled",
      body:
        args.outcome === "paid"
          ? `GharSewa settled the dispute: the ${amount} in cash counts as paid. ${reason}`
          : `GharSewa settled the dispute: the ${amount} in cash is waived and nobody owes it. ${reason}`,
      params: { amount: String(payment.amountPaisa), outcome: args.outcome, reason },
      bookingId: booking._id,
    });
  }
}
