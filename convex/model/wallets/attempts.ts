/**
 * A customer's wallet payment of a booking's bill, one `paymentAttempts` row per trip to a gateway.
 * The amount is the server's bill (model/bill.ts) when the attempt opens; a payment is recorded in the
 * ledger (model/ledger.ts, idempotent by the attempt's reference) only when the gateway itself, asked
 * by this deployment, says it is complete for exactly that amount. Returns from the gateway only make
 * the deployment ask sooner; each unsettled attempt is also asked on a schedule (RECHECK_DELAYS_MS,
 * its `nextCheckAt`, started by a cron) until it settles or the re-checks run out.
 */
import { ConvexError } from "convex/values";
import { internal } from "../../_generated/api";
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../../_generated/server";
import { RATE_LIMITS } from "../../rules/limits";
import { mayPay, pendingLines } from "../../rules/bill";
import {
  RECHECK_DELAYS_MS,
  type AttemptProblem,
  type AttemptState,
  type WalletMethod,
} from "../../rules/wallets";
import { billOf } from "../bill";
import { fail, notFound } from "../errors";
import { recordPayment } from "../ledger";
import { consume } from "../rateLimit";
import type { CheckOutcome } from "./gateways";

/** A new attempt for the viewer's own booking, at the bill's amount; refusals are ConvexErrors. */
export async function openAttempt(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
  method: WalletMethod,
): Promise<Doc<"paymentAttempts">> {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || booking.customerId !== viewer._id) notFound("Booking not found.");
  const bill = await billOf(ctx, booking);
  if (!mayPay(booking.status, bill.lines))
    fail("NOT_PAYABLE", "This booking cannot be paid now: it is paid once the job is under way.");
  if (bill.paid) fail("ALREADY_PAID", "This booking is paid already.");
  if (pendingLines(bill.lines).length > 0)
    fail("BILL_PENDING", "Some items on the bill still wait for your answer.");
  if (!Number.isSafeInteger(bill.totalPaisa) || bill.totalPaisa <= 0)
    fail("NOT_PAYABLE", "This booking has nothing to pay yet.");
  await consume(ctx, {
    action: "paymentStart",
    scope: "perUser",
    actor: viewer._id,
    allowance: RATE_LIMITS.paymentStart.perUser,
  });
  const now = Date.now();
  const attemptId = await ctx.db.insert("paymentAttempts", {
    bookingId,
    customerId: viewer._id,
    method,
    reference: crypto.randomUUID(),
    amountPaisa: bill.totalPaisa,
    state: method === "khalti" ? "opening" : "open",
    checks: 0,
    nextCheckAt: now + RECHECK_DELAYS_MS[0]!,
    round: 0,
    updatedAt: now,
  });
  return (await ctx.db.get("paymentAttempts", attemptId))!;
}

/** The viewer's own attempt; anyone else's (or none) is NOT_FOUND, told apart from nothing. */
export function ownAttempt(
  viewer: Doc<"users">,
  attempt: Doc<"paymentAttempts"> | null,
): Doc<"paymentAttempts"> {
  if (attempt === null || attempt.customerId !== viewer._id) notFound("Payment not found.");
  return attempt;
}

export const byReference = (ctx: QueryCtx, reference: string) =>
  ctx.db
    .query("paymentAttempts")
    .withIndex("by_reference", (q) => q.eq("reference", reference))
    .unique();

export const byPidx = (ctx: QueryCtx, pidx: string) =>
  ctx.db
    .query("paymentAttempts")
    .withIndex("by_pidx", (q) => q.eq("pidx", pidx))
    .unique();

/** At most one immediate check per attempt every few seconds, however often a return is replayed. */
const RETURN_CHECK_GAP_MS = 5_000;

/**
 * A return from the gateway for `attempt`: `verified` false (a forged or altered eSewa return) is
 * remembered and asks nothing; otherwise the gateway is asked now. `leftGateway`: the customer came
 * back through the failure URL (a payment the gateway does not know then reads as cancelled).
 */
export async function noteReturn(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  attempt: Doc<"paymentAttempts">,
  { verified, leftGateway }: { verified: boolean; leftGateway: boolean },
): Promise<void> {
  await consume(ctx, {
    action: "paymentReturn",
    scope: "perUser",
    actor: viewer._id,
    allowance: RATE_LIMITS.paymentReturn.perUser,
  });
  if (attempt.state === "paid" || attempt.state === "refunded") return;
  if (!verified) {
    await ctx.db.patch("paymentAttempts", attempt._id, {
      problem: "unverified",
      updatedAt: Date.now(),
    });
    return;
  }
  const now = Date.now();
  const recent =
    attempt.returnCheckAt !== undefined && now - attempt.returnCheckAt < RETURN_CHECK_GAP_MS;
  await ctx.db.patch("paymentAttempts", attempt._id, {
    state: leftGateway ? attempt.state : "checking",
    problem: undefined,
    leftGateway: leftGateway || attempt.leftGateway,
    returnCheckAt: recent ? attempt.returnCheckAt : now,
    updatedAt: now,
  });
  if (!recent) await ctx.scheduler.runAfter(0, internal.wallets.check, { attemptId: attempt._id });
}

/** Khalti answered the initiate: the customer may go to `paymentUrl`, or the attempt failed. */
export async function khaltiOpened(
  ctx: MutationCtx,
  attemptId: Id<"paymentAttempts">,
  opened: { pidx: string; paymentUrl: string } | { problem: AttemptProblem },
): Promise<void> {
  const attempt = await ctx.db.get("paymentAttempts", attemptId);
  if (attempt === null || attempt.state !== "opening") return;
  await ctx.db.patch(
    "paymentAttempts",
    attemptId,
    "pidx" in opened
      ? { state: "open", pidx: opened.pidx, paymentUrl: opened.paymentUrl, updatedAt: Date.now() }
      : { state: "failed", problem: opened.problem, updatedAt: Date.now() },
  );
}

/** Outcomes the gateway reports as final: no more scheduled checks after them. */
const FINAL: readonly CheckOutcome["kind"][] = [
  "paid",
  "canceled",
  "expired",
  "refunded",
  "amount_mismatch",
];

/**
 * What a check found, applied: `paid` records the payment (once: the ledger is idempotent by
 * reference, and a paid attempt is never touched again); `round` is the scheduled re-check's, whose
 * next one is set until a final outcome or the last delay.
 */
export async function settle(
  ctx: MutationCtx,
  attemptId: Id<"paymentAttempts">,
  outcome: CheckOutcome,
  round: number | undefined,
): Promise<void> {
  const attempt = await ctx.db.get("paymentAttempts", attemptId);
  if (attempt === null || attempt.state === "paid" || attempt.state === "refunded") return;
  const now = Date.now();
  const lastRound = round !== undefined && round + 1 >= RECHECK_DELAYS_MS.length;
  let next: { state: AttemptState; problem?: AttemptProblem; gatewayId?: string };
  switch (outcome.kind) {
    case "paid":
      next = await recorded(ctx, attempt, outcome.gatewayId);
      break;
    case "pending":
      next = lastRound ? { state: "failed", problem: "unsettled" } : { state: "pending" };
      break;
    case "open":
      if (attempt.state === "opening") return; // Khalti's initiate has not answered yet
      next = attempt.leftGateway
        ? { state: "canceled" }
        : lastRound
          ? { state: "expired" }
          : { state: attempt.state === "checking" ? "open" : attempt.state };
      break;
    case "unreachable":
      next = lastRound
        ? { state: "failed", problem: "unreachable" }
        : { state: attempt.state === "checking" ? "pending" : attempt.state };
      if (!lastRound && attempt.state === "checking") next.problem = "unreachable";
      break;
    case "amount_mismatch":
      next = { state: "failed", problem: "amount_mismatch" };
      break;
    default:
      next = { state: outcome.kind };
  }
  const again = round !== undefined && !lastRound && !FINAL.includes(outcome.kind);
  await ctx.db.patch("paymentAttempts", attemptId, {
    state: next.state,
    problem: next.problem,
    gatewayId: next.gatewayId ?? attempt.gatewayId,
    checks: attempt.checks + 1,
    ...(round === undefined
      ? {}
      : again
        ? { nextCheckAt: now + RECHECK_DELAYS_MS[round + 1]!, round: round + 1 }
        : { nextCheckAt: undefined }),
    updatedAt: now,
  });
}

/** Re-checks started per run of the cron (crons.ts, every minute); the rest wait for the next run. */
export const DUE_CHECKS_PER_RUN = 50;

/** The cron's run: every attempt whose next re-check is due is claimed and checked now. */
export async function startDueChecks(ctx: MutationCtx): Promise<number> {
  const due = await ctx.db
    .query("paymentAttempts")
    .withIndex("by_nextCheckAt", (q) => q.gt("nextCheckAt", 0).lte("nextCheckAt", Date.now()))
    .take(DUE_CHECKS_PER_RUN);
  for (const attempt of due) {
    await ctx.db.patch("paymentAttempts", attempt._id, { nextCheckAt: undefined });
    await ctx.scheduler.runAfter(0, internal.wallets.check, {
      attemptId: attempt._id,
      round: attempt.round ?? 0,
    });
  }
  return due.length;
}

async function recorded(
  ctx: MutationCtx,
  attempt: Doc<"paymentAttempts">,
  gatewayId: string,
): Promise<{ state: AttemptState; problem?: AttemptProblem; gatewayId: string }> {
  const booking = await ctx.db.get("bookings", attempt.bookingId);
  // paid meanwhile by another attempt or in cash: this second payment waits for a refund
  if (booking === null || (await billOf(ctx, booking)).paid)
    return { state: "failed", problem: "already_paid", gatewayId };
  try {
    await recordPayment(ctx, {
      bookingId: attempt.bookingId,
      method: attempt.method,
      amountPaisa: attempt.amountPaisa,
      reference: attempt.pidx ?? attempt.reference,
    });
    return { state: "paid", gatewayId };
  } catch (error) {
    // the ledger refused (the bill changed, the booking was cancelled): the money waits for a refund
    if (error instanceof ConvexError)
      return { state: "failed", problem: "bill_changed", gatewayId };
    throw error;
  }
}

/** What the customer's pages show of an attempt. */
export function attemptView(attempt: Doc<"paymentAttempts">) {
  return {
    _id: attempt._id,
    bookingId: attempt.bookingId,
    method: attempt.method,
    amountPaisa: attempt.amountPaisa,
    state: attempt.state,
    problem: attempt.problem ?? null,
    paymentUrl: attempt.state === "open" ? (attempt.paymentUrl ?? null) : null,
    gatewayId: attempt.gatewayId ?? null,
    updatedAt: attempt.updatedAt,
  };
}
