/**
 * Paying a booking's bill with eSewa or Khalti (model/wallets/): the customer starts a payment, is
 * sent to the gateway, and comes back to the web app's return page, which reports the return and
 * then watches the attempt live. Only the gateway's own answer to this deployment pays.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalAction, internalMutation, internalQuery } from "./_generated/server";
import { customerMutation, customerQuery } from "./functions";
import { fail } from "./model/errors";
import * as Attempts from "./model/wallets/attempts";
import {
  esewaConfig,
  esewaForm,
  esewaReturnVerified,
  esewaStatus,
  khaltiConfig,
  khaltiInitiate,
  khaltiLookup,
  type CheckOutcome,
} from "./model/wallets/gateways";
import { MAX_ESEWA_DATA_LENGTH, MAX_REFERENCE_LENGTH } from "./rules/wallets";
import { attemptProblem, walletMethod } from "./validators";

const attemptView = v.object({
  _id: v.id("paymentAttempts"),
  bookingId: v.id("bookings"),
  method: walletMethod,
  amountPaisa: v.number(),
  state: v.string(),
  problem: v.union(attemptProblem, v.null()),
  paymentUrl: v.union(v.string(), v.null()),
  gatewayId: v.union(v.string(), v.null()),
  updatedAt: v.number(),
});

/**
 * The customer opens a payment of their booking's bill. eSewa: the signed form their browser POSTs
 * to eSewa comes back at once. Khalti: the initiate runs now; `attempt` shows `paymentUrl` once
 * Khalti answered. Refused: NOT_FOUND (not their booking), NOT_PAYABLE, ALREADY_PAID,
 * PAYMENTS_UNAVAILABLE (the gateway is not configured), RATE_LIMITED.
 */
export const start = customerMutation({
  args: { bookingId: v.id("bookings"), method: walletMethod },
  returns: v.object({
    attemptId: v.id("paymentAttempts"),
    esewa: v.union(
      v.object({ url: v.string(), fields: v.record(v.string(), v.string()) }),
      v.null(),
    ),
  }),
  handler: async (ctx, { bookingId, method }) => {
    const esewa = method === "esewa" ? esewaConfig() : null;
    if (method === "esewa" ? esewa === null : khaltiConfig() === null)
      fail("PAYMENTS_UNAVAILABLE", "This payment method is not available right now.");
    const attempt = await Attempts.openAttempt(ctx, ctx.viewer, bookingId, method);
    if (esewa === null) {
      await ctx.scheduler.runAfter(0, internal.wallets.initiateKhalti, {
        attemptId: attempt._id,
      });
      return { attemptId: attempt._id, esewa: null };
    }
    return {
      attemptId: attempt._id,
      esewa: await esewaForm(esewa, attempt.reference, attempt.amountPaisa),
    };
  },
});

/** One of the customer's payment attempts, live; null for anyone else's or none. */
export const attempt = customerQuery({
  args: { attemptId: v.id("paymentAttempts") },
  returns: v.union(attemptView, v.null()),
  handler: async (ctx, { attemptId }) => {
    const attempt = await ctx.db.get("paymentAttempts", attemptId);
    return attempt === null || attempt.customerId !== ctx.viewer._id
      ? null
      : Attempts.attemptView(attempt);
  },
});

/** The latest payment attempt on the customer's booking, live (the bill's pay buttons show it). */
export const latest = customerQuery({
  args: { bookingId: v.id("bookings") },
  returns: v.union(attemptView, v.null()),
  handler: async (ctx, { bookingId }) => {
    const booking = await ctx.db.get("bookings", bookingId);
    if (booking === null || booking.customerId !== ctx.viewer._id) return null;
    const attempt = await ctx.db
      .query("paymentAttempts")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
      .order("desc")
      .first();
    return attempt === null ? null : Attempts.attemptView(attempt);
  },
});

const reference = (value: string) => {
  if (value.length > MAX_REFERENCE_LENGTH) fail("INVALID_INPUT", "Unknown payment.");
  return value;
};

/**
 * The customer is back from eSewa: `data` (base64 JSON, to success_url) is checked against the
 * signature and what was sent; without `data` (to failure_url) they left. Either way eSewa's status
 * check decides. Returns the attempt to watch; NOT_FOUND for anyone else's transaction.
 */
export const esewaReturned = customerMutation({
  args: { transactionUuid: v.string(), data: v.optional(v.string()) },
  returns: v.id("paymentAttempts"),
  handler: async (ctx, { transactionUuid, data }) => {
    const attempt = Attempts.ownAttempt(
      ctx.viewer,
      await Attempts.byReference(ctx, reference(transactionUuid)),
    );
    if (attempt.method !== "esewa") fail("NOT_FOUND", "Payment not found.");
    if (data !== undefined && data.length > MAX_ESEWA_DATA_LENGTH)
      fail("INVALID_INPUT", "The payment's answer is too long.");
    const config = esewaConfig();
    const verified =
      data === undefined ||
      (config !== null &&
        (await esewaReturnVerified(config, data, {
          transactionUuid: attempt.reference,
          amountPaisa: attempt.amountPaisa,
        })));
    await Attempts.noteReturn(ctx, ctx.viewer, attempt, {
      verified,
      leftGateway: data === undefined,
    });
    return attempt._id;
  },
});

/** The customer is back from Khalti with `pidx`; Khalti's lookup decides. NOT_FOUND for others'. */
export const khaltiReturned = customerMutation({
  args: { pidx: v.string() },
  returns: v.id("paymentAttempts"),
  handler: async (ctx, { pidx }) => {
    const attempt = Attempts.ownAttempt(ctx.viewer, await Attempts.byPidx(ctx, reference(pidx)));
    await Attempts.noteReturn(ctx, ctx.viewer, attempt, { verified: true, leftGateway: false });
    return attempt._id;
  },
});

export const initiateKhalti = internalAction({
  args: { attemptId: v.id("paymentAttempts") },
  returns: v.null(),
  handler: async (ctx, { attemptId }) => {
    const attempt = await ctx.runQuery(internal.wallets.attemptRow, { attemptId });
    const config = khaltiConfig();
    if (attempt === null || attempt.state !== "opening") return null;
    const opened =
      config === null
        ? ({ kind: "refused" } as const)
        : await khaltiInitiate(config, {
            purchaseOrderId: attempt.reference,
            name: "GharSewa booking",
            amountPaisa: attempt.amountPaisa,
          });
    await ctx.runMutation(internal.wallets.khaltiOpened, {
      attemptId,
      opened:
        opened.kind === "opened"
          ? { pidx: opened.pidx, paymentUrl: opened.paymentUrl }
          : { problem: opened.kind },
    });
    return null;
  },
});

export const khaltiOpened = internalMutation({
  args: {
    attemptId: v.id("paymentAttempts"),
    opened: v.union(
      v.object({ pidx: v.string(), paymentUrl: v.string() }),
      v.object({ problem: attemptProblem }),
    ),
  },
  returns: v.null(),
  handler: async (ctx, { attemptId, opened }) => {
    await Attempts.khaltiOpened(ctx, attemptId, opened);
    return null;
  },
});

export const attemptRow = internalQuery({
  args: { attemptId: v.id("paymentAttempts") },
  handler: async (ctx, { attemptId }) => await ctx.db.get("paymentAttempts", attemptId),
});

/**
 * Asks the gateway about an attempt. `round`: the scheduled chain's (model/wallets/attempts.ts
 * RECHECK_DELAYS_MS); without it, a one-off check after a return.
 */
export const check = internalAction({
  args: { attemptId: v.id("paymentAttempts"), round: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, { attemptId, round }) => {
    const attempt = await ctx.runQuery(internal.wallets.attemptRow, { attemptId });
    if (attempt === null || attempt.state === "paid" || attempt.state === "refunded") return null;
    let outcome: CheckOutcome;
    if (attempt.method === "esewa") {
      const config = esewaConfig();
      outcome =
        config === null
          ? { kind: "unreachable" }
          : await esewaStatus(config, attempt.reference, attempt.amountPaisa);
    } else {
      const config = khaltiConfig();
      outcome =
        attempt.pidx === undefined
          ? { kind: "open" }
          : config === null
            ? { kind: "unreachable" }
            : await khaltiLookup(config, attempt.pidx, attempt.amountPaisa);
    }
    await ctx.runMutation(internal.wallets.settle, { attemptId, outcome, round });
    return null;
  },
});

const checkOutcome = v.union(
  v.object({ kind: v.literal("paid"), gatewayId: v.string() }),
  v.object({
    kind: v.union(
      v.literal("pending"),
      v.literal("open"),
      v.literal("canceled"),
      v.literal("expired"),
      v.literal("refunded"),
      v.literal("amount_mismatch"),
      v.literal("unreachable"),
    ),
  }),
);

export const settle = internalMutation({
  args: {
    attemptId: v.id("paymentAttempts"),
    outcome: checkOutcome,
    round: v.optional(v.number()),
  },
  returns: v.null(),
  handler: async (ctx, { attemptId, outcome, round }) => {
    await Attempts.settle(ctx, attemptId, outcome, round);
    return null;
  },
});

/** Every minute (crons.ts): starts the re-checks that are due. */
export const startDueChecks = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await Attempts.startDueChecks(ctx);
    return null;
  },
});
