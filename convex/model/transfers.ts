/**
 * Money an admin records moving between the platform and a professional outside the app
 * (rules/ledger.ts), one rule for both directions:
 * - a payout: the platform paid them what it owed (bank, eSewa, Khalti or cash): one `payouts`
 *   row and one `payout` ledger transaction, professional_earning +P, platform_funds −P;
 * - a settlement: they handed over the commission they held on cash jobs (the customer paid them
 *   in full): one `settlements` row and one `settlement` transaction, platform_funds +S,
 *   professional_cash −S.
 * Balances are sums of ledger rows, never stored. What a professional owes is the net of the cash
 * held against the earnings due (payouts net the owed amount), so only a net debt is settled.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { PaginationOptions, PaginationResult } from "convex/server";
import { balanceSides } from "../rules/earnings";
import type { Account, PayoutMethod } from "../rules/ledger";
import { amountProblem, formatPaisa } from "../rules/money";
import { referenceProblem } from "../rules/payouts";
import type { NewNotification } from "./push";
import { fail } from "./errors";
import { post, professionalBalance } from "./ledger";
import { notify } from "./notifications";

/** Transfers listed per page. */
export const PAGE_SIZE = 20;

export const bounded = (opts: PaginationOptions): PaginationOptions => ({
  ...opts,
  numItems: Math.max(1, Math.min(opts.numItems, PAGE_SIZE)),
});

export async function nameOf(ctx: QueryCtx, userId: Id<"users">) {
  const user = await ctx.db.get("users", userId);
  return user?.name ?? user?.username ?? "";
}

export type TransferKind = "payout" | "settlement";

type TransferArgs = {
  professionalId: Id<"professionals">;
  method: PayoutMethod;
  reference: string;
  amountPaisa: number;
};

/** What each kind is recorded with: the payout also carries the balance the admin saw. */
interface TransferInput {
  payout: TransferArgs & { seenDuePaisa: number };
  settlement: TransferArgs;
}

interface TransferTables {
  payout: "payouts";
  settlement: "settlements";
}
type TransferTable<K extends TransferKind> = TransferTables[K];

/** The row each kind writes in its table. */
type TransferRow = TransferArgs & { adminId: Id<"users"> };

interface TransferRule<K extends TransferKind> {
  insert: (ctx: MutationCtx, row: TransferRow) => Promise<Id<TransferTable<K>>>;
  /** A page of the kind's rows, newest first. */
  newest: (
    ctx: QueryCtx,
    opts: PaginationOptions,
  ) => Promise<PaginationResult<Doc<TransferTable<K>>>>;
  /** One recorded before under this method and reference, for kinds that answer a replay with it. */
  recorded?: (
    ctx: QueryCtx,
    method: PayoutMethod,
    reference: string,
  ) => Promise<Doc<TransferTable<K>> | null>;
  /** The account the money reaches (+) and the one it leaves (−). */
  to: Account;
  from: Account;
  /** Refuses the amount against the professional's balance now (due to them; negative: owed). */
  check: (duePaisa: number, args: TransferInput[K]) => void;
  /** The notification's kind and English words; `amount` is already formatted. */
  notice: (
    amount: string,
    method: PayoutMethod,
    reference: string,
  ) => Pick<NewNotification, "kind" | "title" | "body">;
}

const RULES: { [K in TransferKind]: TransferRule<K> } = {
  payout: {
    insert: (ctx, row) => ctx.db.insert("payouts", row),
    newest: (ctx, opts) => ctx.db.query("payouts").order("desc").paginate(opts),
    to: "professional_earning",
    from: "platform_funds",
    check: (duePaisa, args) => {
      if (duePaisa !== args.seenDuePaisa)
        fail("BALANCE_CHANGED", "The balance changed: check it and record the payout again.", {
          duePaisa,
        });
      if (args.amountPaisa > duePaisa)
        fail("OVER_BALANCE", `At most ${formatPaisa(Math.max(0, duePaisa))} is due.`, {
          duePaisa,
        });
    },
    notice: (amount, method, reference) => ({
      kind: "payout.recorded",
      title: "Payout sent",
      body: `GharSewa paid you ${amount} (${method}, reference ${reference}).`,
    }),
  },
  settlement: {
    insert: (ctx, row) => ctx.db.insert("settlements", row),
    newest: (ctx, opts) => ctx.db.query("settlements").order("desc").paginate(opts),
    recorded: (ctx, method, reference) =>
      ctx.db
        .query("settlements")
        .withIndex("by_method_and_reference", (q) =>
          q.eq("method", method).eq("reference", reference),
        )
        .first(),
    to: "platform_funds",
    from: "professional_cash",
    check: (duePaisa, args) => {
      const { owedByThemPaisa } = balanceSides(duePaisa);
      if (args.amountPaisa > owedByThemPaisa)
        fail("OVER_OWED", `At most ${formatPaisa(owedByThemPaisa)} is owed.`, { owedByThemPaisa });
    },
    notice: (amount, method, reference) => ({
      kind: "settlement.recorded",
      title: "Cash commission received",
      body: `GharSewa received ${amount} of the commission you owed (${method}, reference ${reference}).`,
    }),
  },
};

/**
 * Records a transfer of `kind` an admin made with a professional. A settlement is idempotent: the
 * same method and reference for the same professional and amount again records nothing and
 * answers the first one (`duplicate`). Refused: INVALID_AMOUNT (not whole paisa above zero),
 * INVALID_INPUT (reference empty or over 200 bytes), NOT_FOUND (no such professional);
 * settlements: REFERENCE_USED (the reference names another settlement), OVER_OWED (more than they
 * owe now); payouts: BALANCE_CHANGED (the balance is not the one the admin saw: a second click, or
 * a job settled meanwhile), OVER_BALANCE (more than is due).
 */
export async function recordTransfer<K extends TransferKind>(
  ctx: MutationCtx,
  admin: Doc<"users">,
  kind: K,
  args: TransferInput[K],
): Promise<{ transferId: Id<TransferTable<K>>; duplicate: boolean }> {
  const amountIssue = amountProblem(args.amountPaisa);
  if (amountIssue !== null) fail("INVALID_AMOUNT", amountIssue);
  const referenceIssue = referenceProblem(args.reference);
  if (referenceIssue !== null) fail("INVALID_INPUT", referenceIssue);
  const pro = await ctx.db.get("professionals", args.professionalId);
  if (pro === null) fail("NOT_FOUND", "This professional was not found.");
  const reference = args.reference.trim();
  const rule: TransferRule<K> = RULES[kind];
  const seen = (await rule.recorded?.(ctx, args.method, reference)) ?? null;
  if (seen !== null) {
    if (seen.professionalId === pro._id && seen.amountPaisa === args.amountPaisa)
      return { transferId: seen._id, duplicate: true };
    fail("REFERENCE_USED", `This reference was already recorded for another ${kind}.`);
  }
  rule.check((await professionalBalance(ctx, pro._id)).duePaisa, args);
  const transferId = await rule.insert(ctx, {
    professionalId: pro._id,
    amountPaisa: args.amountPaisa,
    method: args.method,
    reference,
    adminId: admin._id,
  });
  await post(ctx, {
    txId: `${kind}:${transferId}`,
    kind,
    professionalId: pro._id,
    method: args.method,
    reference,
    entries: [
      { account: rule.to, amountPaisa: args.amountPaisa },
      { account: rule.from, amountPaisa: -args.amountPaisa },
    ],
  });
  await notify(ctx, {
    userId: pro.userId,
    ...rule.notice(formatPaisa(args.amountPaisa), args.method, reference),
    params: { amount: String(args.amountPaisa), method: args.method, reference },
  });
  return { transferId, duplicate: false };
}

/** One line of a transfer history. */
export interface TransferLine<K extends TransferKind> {
  _id: Id<TransferTable<K>>;
  at: number;
  professional: string;
  admin: string;
  amountPaisa: number;
  method: PayoutMethod;
  reference: string;
}

/** Every transfer of `kind`, newest first, with the professional and the admin who recorded it. */
export async function historyPage<K extends TransferKind>(
  ctx: QueryCtx,
  kind: K,
  paginationOpts: PaginationOptions,
): Promise<PaginationResult<TransferLine<K>>> {
  const rule: TransferRule<K> = RULES[kind];
  const page = await rule.newest(ctx, bounded(paginationOpts));
  return {
    ...page,
    page: await Promise.all(
      page.page.map(async (row) => {
        const pro = await ctx.db.get("professionals", row.professionalId);
        const [professional, admin] = await Promise.all([
          pro === null ? "" : nameOf(ctx, pro.userId),
          nameOf(ctx, row.adminId),
        ]);
        return {
          _id: row._id,
          at: row._creationTime,
          professional,
          admin,
          amountPaisa: row.amountPaisa,
          method: row.method,
          reference: row.reference,
        };
      }),
    ),
  };
}
