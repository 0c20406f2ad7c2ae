/**
 * Paying professionals out (rules/ledger.ts): an admin records a transfer already made (bank,
 * eSewa, Khalti or cash) as one `payouts` row and one balanced `payout` ledger transaction:
 * professional_earning +P, platform_funds −P. The balance due is a sum of ledger rows, never stored.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { PaginationOptions } from "convex/server";
import type { PayoutMethod } from "../rules/ledger";
import { amountProblem, formatPaisa } from "../rules/money";
import { PAYOUT_LIMITS, referenceProblem } from "../rules/payouts";
import { fail } from "./errors";
import { post, professionalBalance } from "./ledger";
import { notify } from "./notifications";

/** Professionals or payouts listed per page. */
const PAGE_SIZE = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

const bounded = (opts: PaginationOptions): PaginationOptions => ({
  ...opts,
  numItems: Math.max(1, Math.min(opts.numItems, PAGE_SIZE)),
});

async function nameOf(ctx: QueryCtx, userId: Id<"users">) {
  const user = await ctx.db.get("users", userId);
  return user?.name ?? user?.username ?? "";
}

/**
 * Professionals in the order they joined (a page keeps its rows as others join), each with what
 * the platform owes them (negative: what they owe).
 */
export async function balancesPage(ctx: QueryCtx, paginationOpts: PaginationOptions) {
  const page = await ctx.db.query("professionals").order("asc").paginate(bounded(paginationOpts));
  return {
    ...page,
    page: await Promise.all(
      page.page.map(async (pro) => {
        const [name, balance] = await Promise.all([
          nameOf(ctx, pro.userId),
          professionalBalance(ctx, pro._id),
        ]);
        return {
          professionalId: pro._id,
          name,
          city: pro.city,
          specialty: pro.specialty,
          duePaisa: balance.duePaisa,
        };
      }),
    ),
  };
}

/**
 * Records a payout the admin made. Refused: INVALID_AMOUNT (not whole paisa above zero),
 * INVALID_INPUT (reference empty or over 200 bytes), NOT_FOUND (no such professional),
 * OVER_BALANCE (more than is due), BALANCE_CHANGED (the balance is not the one the admin saw:
 * a second click, or a job settled meanwhile).
 */
export async function recordPayout(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: {
    professionalId: Id<"professionals">;
    method: PayoutMethod;
    reference: string;
    amountPaisa: number;
    seenDuePaisa: number;
  },
): Promise<Id<"payouts">> {
  const amountIssue = amountProblem(args.amountPaisa);
  if (amountIssue !== null) fail("INVALID_AMOUNT", amountIssue);
  const referenceIssue = referenceProblem(args.reference);
  if (referenceIssue !== null) fail("INVALID_INPUT", referenceIssue);
  const pro = await ctx.db.get("professionals", args.professionalId);
  if (pro === null) fail("NOT_FOUND", "This professional was not found.");
  const { duePaisa } = await professionalBalance(ctx, pro._id);
  if (duePaisa !== args.seenDuePaisa)
    fail("BALANCE_CHANGED", "The balance changed: check it and record the payout again.", {
      duePaisa,
    });
  if (args.amountPaisa > duePaisa)
    fail("OVER_BALANCE", `At most ${formatPaisa(Math.max(0, duePaisa))} is due.`, { duePaisa });
  const reference = args.reference.trim();
  const payoutId = await ctx.db.insert("payouts", {
    professionalId: pro._id,
    amountPaisa: args.amountPaisa,
    method: args.method,
    reference,
    adminId: admin._id,
  });
  await post(ctx, {
    txId: `payout:${payoutId}`,
    kind: "payout",
    professionalId: pro._id,
    method: args.method,
    reference,
    entries: [
      { account: "professional_earning", amountPaisa: args.amountPaisa },
      { account: "platform_funds", amountPaisa: -args.amountPaisa },
    ],
  });
  await notify(ctx, {
    userId: pro.userId,
    kind: "payout.recorded",
    title: "Payout sent",
    body: `GharSewa paid you ${formatPaisa(args.amountPaisa)} (${args.method}, reference ${reference}).`,
    params: { amount: String(args.amountPaisa), method: args.method, reference },
  });
  return payoutId;
}

/** Every payout, newest first, with who was paid and which admin recorded it. */
export async function historyPage(ctx: QueryCtx, paginationOpts: PaginationOptions) {
  const page = await ctx.db.query("payouts").order("desc").paginate(bounded(paginationOpts));
  return {
    ...page,
    page: await Promise.all(
      page.page.map(async (p) => {
        const pro = await ctx.db.get("professionals", p.professionalId);
        const [professional, admin] = await Promise.all([
          pro === null ? "" : nameOf(ctx, pro.userId),
          nameOf(ctx, p.adminId),
        ]);
        return {
          _id: p._id,
          at: p._creationTime,
          professional,
          admin,
          amountPaisa: p.amountPaisa,
          method: p.method,
          reference: p.reference,
        };
      }),
    ),
  };
}

/**
 * The ledger's rows from `from` up to (not including) `to`, oldest first, at most
 * PAYOUT_LIMITS.exportRows; `truncated` says when the range held more.
 */
export async function ledgerRows(ctx: QueryCtx, from: number, to: number) {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to <= from)
    fail("INVALID_INPUT", "Choose a start date before the end date.");
  if (to - from > PAYOUT_LIMITS.exportDays * DAY_MS)
    fail("INVALID_INPUT", `Export at most ${PAYOUT_LIMITS.exportDays} days at a time.`);
  const rows = await ctx.db
    .query("ledgerEntries")
    .withIndex("by_creation_time", (q) => q.gte("_creationTime", from).lt("_creationTime", to))
    .take(PAYOUT_LIMITS.exportRows + 1);
  return {
    truncated: rows.length > PAYOUT_LIMITS.exportRows,
    rows: rows.slice(0, PAYOUT_LIMITS.exportRows).map((r) => ({
      at: r._creationTime,
      txId: r.txId,
      kind: r.kind,
      account: r.account,
      amountPaisa: r.amountPaisa,
      method: r.method ?? null,
      reference: r.reference ?? null,
      bookingId: r.bookingId ?? null,
      professionalId: r.professionalId ?? null,
    })),
  };
}
