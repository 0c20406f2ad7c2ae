/**
 * The ledger (rules/ledger.ts): immutable double-entry rows, written only through `post`, which
 * refuses a transaction that does not sum to zero. Payments are recorded once per booking and once
 * per gateway reference; the commission and the professional's earning are booked when the job is
 * done and paid (cash: confirmed), whichever comes last.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { hasFee, mayPay, pendingLines } from "../rules/bill";
import {
  balanced,
  dueToProfessional,
  type Account,
  type PaymentMethod,
  type PayoutMethod,
  type TxKind,
} from "../rules/ledger";
import { amountProblem, commissionOf, formatPaisa } from "../rules/money";
import { billOf } from "./bill";
import { fail } from "./errors";
import { issueReceipt } from "./receipts";
import { getSettings } from "./settings";

/** Statuses after the job is done: the commission is taken once the booking is in one and paid. */
const DONE_STATUSES: readonly Doc<"bookings">["status"][] = ["completed", "reviewed"];
/** Rows summed for one balance; a professional's account holds a few rows per job. */
const MAX_ROWS_PER_BALANCE = 20_000;

type Entry = { account: Account; amountPaisa: number };

/** Writes one transaction; refuses entries that are not whole paisa or do not sum to zero. */
export async function post(
  ctx: MutationCtx,
  tx: {
    txId: string;
    kind: TxKind;
    entries: Entry[];
    bookingId?: Id<"bookings">;
    customerId?: Id<"users">;
    professionalId?: Id<"professionals">;
    method?: PaymentMethod | PayoutMethod;
    reference?: string;
  },
): Promise<void> {
  if (!balanced(tx.entries)) throw new Error(`Unbalanced ledger transaction ${tx.txId}`);
  const existing = await ctx.db
    .query("ledgerEntries")
    .withIndex("by_txId", (q) => q.eq("txId", tx.txId))
    .first();
  if (existing !== null) throw new Error(`Ledger transaction ${tx.txId} exists`);
  const { entries, ...common } = tx;
  for (const e of entries) {
    if (e.amountPaisa === 0) continue;
    await ctx.db.insert("ledgerEntries", { ...common, ...e });
  }
}

async function txExists(ctx: QueryCtx, txId: string): Promise<boolean> {
  const row = await ctx.db
    .query("ledgerEntries")
    .withIndex("by_txId", (q) => q.eq("txId", txId))
    .first();
  return row !== null;
}

export async function paymentOf(ctx: QueryCtx, bookingId: Id<"bookings">) {
  return await ctx.db
    .query("payments")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .first();
}

/**
 * Records the customer's payment of a booking's bill; cash is booked only once its customer confirms
 * it (confirmCash). Idempotent: the same (method, reference) again, or any second payment of a paid
 * booking, records nothing and answers "duplicate". Refuses an amount other than the bill's total (WRONG_AMOUNT), a bill with items still to answer, and a booking that
 * is not payable (cancelled, not started).
 */
export async function recordPayment(
  ctx: MutationCtx,
  args: {
    bookingId: Id<"bookings">;
    method: "cash" | "esewa" | "khalti";
    amountPaisa: number;
    reference: string;
  },
): Promise<"recorded" | "duplicate"> {
  const reference = args.reference.trim();
  if (reference.length === 0 || reference.length > 200)
    fail("INVALID_INPUT", "A payment needs a reference of 1 to 200 characters.");
  const seen = await ctx.db
    .query("payments")
    .withIndex("by_method_and_reference", (q) =>
      q.eq("method", args.method).eq("reference", reference),
    )
    .first();
  if (seen !== null) return "duplicate";
  const booking = await ctx.db.get("bookings", args.bookingId);
  if (booking === null) fail("NOT_FOUND", "This booking was not found.");
  const bill = await billOf(ctx, booking);
  if (!mayPay(booking.status, bill.lines)) {
    fail(
      "NOT_PAYABLE",
      booking.status === "cancelled"
        ? "This booking was cancelled: it cannot be paid."
        : "This booking cannot be paid now: it is paid once the job is under way or done.",
    );
  }
  if (await paymentOf(ctx, booking._id)) return "duplicate";
  const problem = amountProblem(args.amountPaisa);
  if (problem !== null) fail("WRONG_AMOUNT", problem);
  if (pendingLines(bill.lines).length > 0)
    fail("BILL_PENDING", "Some items on the bill still wait for the customer's answer.");
  if (args.amountPaisa !== bill.totalPaisa) {
    fail(
      "WRONG_AMOUNT",
      `The bill is ${formatPaisa(bill.totalPaisa)}, not ${formatPaisa(args.amountPaisa)}.`,
      { billPaisa: bill.totalPaisa },
    );
  }
  const paymentId = await ctx.db.insert("payments", {
    bookingId: booking._id,
    customerId: booking.customerId,
    professionalId: booking.professionalId,
    method: args.method,
    reference,
    amountPaisa: args.amountPaisa,
    ...(args.method === "cash" ? { cash: { state: "awaiting" as const } } : {}),
  });
  // cash is booked once its customer confirms it (confirmCash): until then it is only the
  // professional's word
  if (args.method !== "cash")
    await bookPayment(ctx, booking, (await ctx.db.get("payments", paymentId))!);
  return "recorded";
}

/** The customer's payment in the ledger, then the job's split if it is done. */
async function bookPayment(ctx: MutationCtx, booking: Doc<"bookings">, payment: Doc<"payments">) {
  await post(ctx, {
    txId: `payment:${payment._id}`,
    kind: "payment",
    bookingId: booking._id,
    customerId: booking.customerId,
    professionalId: booking.professionalId,
    method: payment.method,
    reference: payment.reference,
    entries: [
      {
        account: payment.method === "cash" ? "professional_cash" : "platform_funds",
        amountPaisa: payment.amountPaisa,
      },
      { account: "customer", amountPaisa: -payment.amountPaisa },
    ],
  });
  await issueReceipt(ctx, payment);
  await settleJob(ctx, booking);
}

/**
 * A recorded cash payment confirmed (by its customer, by nobody disputing it in time, or by an admin
 * settling its dispute, `from` "disputed"): it is booked like any payment. Answers false, changing
 * nothing, when it is not cash in state `from`.
 */
export async function confirmCash(
  ctx: MutationCtx,
  paymentId: Id<"payments">,
  from: "awaiting" | "disputed" = "awaiting",
  settledBy?: Id<"users">,
): Promise<boolean> {
  const payment = await ctx.db.get("payments", paymentId);
  const booking = payment && (await ctx.db.get("bookings", payment.bookingId));
  if (!payment?.cash || !booking || payment.cash.state !== from) return false;
  await ctx.db.patch("payments", payment._id, {
    cash: {
      ...payment.cash,
      state: "confirmed",
      decidedAt: Date.now(),
      ...(settledBy ? { settledBy } : {}),
    },
  });
  await bookPayment(ctx, booking, payment);
  return true;
}

/**
 * Once a job is done and paid: the customer's payment is earned, split into the platform's commission
 * (the admin's percent) and the professional's earning. Once per booking; nothing before both. A
 * late-cancellation fee, once paid, is split the same way (kind "fee").
 */
export async function settleJob(ctx: MutationCtx, booking: Doc<"bookings">): Promise<void> {
  const current = await ctx.db.get("bookings", booking._id);
  if (current === null) return;
  const fee = current.status === "cancelled" && hasFee((await billOf(ctx, current)).lines);
  if (!fee && !DONE_STATUSES.includes(current.status)) return;
  const payment = await paymentOf(ctx, booking._id);
  const txId = `job:${booking._id}`;
  if (payment === null || (await txExists(ctx, txId))) return;
  if (payment.cash !== undefined && payment.cash.state !== "confirmed") return;
  const gross = payment.amountPaisa;
  const commission = commissionOf(gross, (await getSettings(ctx)).commissionPercent);
  await post(ctx, {
    txId,
    kind: fee ? "fee" : "job",
    bookingId: booking._id,
    customerId: booking.customerId,
    professionalId: booking.professionalId,
    method: payment.method,
    entries: [
      { account: "customer", amountPaisa: gross },
      { account: "commission", amountPaisa: -commission },
      { account: "professional_earning", amountPaisa: -(gross - commission) },
    ],
  });
}

/** The sum of one professional's entries in `account`. */
async function proSum(
  ctx: QueryCtx,
  professionalId: Id<"professionals">,
  account: Account,
): Promise<number> {
  const rows = await ctx.db
    .query("ledgerEntries")
    .withIndex("by_professionalId_and_account_and_kind", (q) =>
      q.eq("professionalId", professionalId).eq("account", account),
    )
    .take(MAX_ROWS_PER_BALANCE);
  return rows.reduce((sum, r) => sum + r.amountPaisa, 0);
}

/** A professional's balances, each a sum of ledger rows. */
export async function professionalBalance(ctx: QueryCtx, professionalId: Id<"professionals">) {
  const [earning, cash] = await Promise.all([
    proSum(ctx, professionalId, "professional_earning"),
    proSum(ctx, professionalId, "professional_cash"),
  ]);
  return {
    /** Earned and not yet paid out (credit balance, shown positive). */
    earnedPaisa: -earning,
    /** Cash collected from customers and not yet handed over. */
    cashHeldPaisa: cash,
    /** What the platform owes them; negative when they owe the platform. */
    duePaisa: dueToProfessional({ professional_earning: earning, professional_cash: cash }),
  };
}
