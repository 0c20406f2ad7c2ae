/**
 * Settling the commission a professional owes on cash jobs (rules/ledger.ts): the customer paid
 * them in full, so they hold the platform's commission. An admin records the cash received as one
 * `settlements` row and one balanced `settlement` ledger transaction: platform_funds +S,
 * professional_cash −S. What is owed is a sum of ledger rows, never stored; it is the net of the
 * cash held against the earnings due (payouts net the owed amount), so only a net debt is settled.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { PaginationOptions } from "convex/server";
import { balanceSides } from "../rules/earnings";
import type { PayoutMethod } from "../rules/ledger";
import { amountProblem, formatPaisa } from "../rules/money";
import { referenceProblem } from "../rules/payouts";
import { fail } from "./errors";
import { post, professionalBalance } from "./ledger";
import { notify } from "./notifications";

/** Settlements listed per page. */
const PAGE_SIZE = 20;

/**
 * Records cash received from a professional towards what they owe. Idempotent: the same method
 * and reference for the same professional and amount again records nothing and answers the first
 * settlement. Refused: INVALID_AMOUNT (not whole paisa above zero), INVALID_INPUT (reference empty
 * or over 200 bytes), NOT_FOUND (no such professional), REFERENCE_USED (the reference names
 * another settlement), OVER_OWED (more than they owe now).
 */
export async function recordSettlement(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: {
    professionalId: Id<"professionals">;
    method: PayoutMethod;
    reference: string;
    amountPaisa: number;
  },
): Promise<{ settlementId: Id<"settlements">; duplicate: boolean }> {
  const amountIssue = amountProblem(args.amountPaisa);
  if (amountIssue !== null) fail("INVALID_AMOUNT", amountIssue);
  const referenceIssue = referenceProblem(args.reference);
  if (referenceIssue !== null) fail("INVALID_INPUT", referenceIssue);
  const pro = await ctx.db.get("professionals", args.professionalId);
  if (pro === null) fail("NOT_FOUND", "This professional was not found.");
  const reference = args.reference.trim();
  const seen = await ctx.db
    .query("settlements")
    .withIndex("by_method_and_reference", (q) =>
      q.eq("method", args.method).eq("reference", reference),
    )
    .first();
  if (seen !== null) {
    if (seen.professionalId === pro._id && seen.amountPaisa === args.amountPaisa)
      return { settlementId: seen._id, duplicate: true };
    fail("REFERENCE_USED", "This reference was already recorded for another settlement.");
  }
  const { owedByThemPaisa } = balanceSides((await professionalBalance(ctx, pro._id)).duePaisa);
  if (args.amountPaisa > owedByThemPaisa)
    fail("OVER_OWED", `At most ${formatPaisa(owedByThemPaisa)} is owed.`, { owedByThemPaisa });
  const settlementId = await ctx.db.insert("settlements", {
    professionalId: pro._id,
    amountPaisa: args.amountPaisa,
    method: args.method,
    reference,
    adminId: admin._id,
  });
  await post(ctx, {
    txId: `settlement:${settlementId}`,
    kind: "settlement",
    professionalId: pro._id,
    method: args.method,
    reference,
    entries: [
      { account: "platform_funds", amountPaisa: args.amountPaisa },
      { account: "professional_cash", amountPaisa: -args.amountPaisa },
    ],
  });
  await notify(ctx, {
    userId: pro.userId,
    kind: "settlement.recorded",
    title: "Cash commission received",
    body: `GharSewa received ${formatPaisa(args.amountPaisa)} of the commission you owed (${args.method}, reference ${reference}).`,
    params: { amount: String(args.amountPaisa), method: args.method, reference },
  });
  return { settlementId, duplicate: false };
}

/** Every settlement, newest first, with who settled and which admin recorded it. */
export async function historyPage(ctx: QueryCtx, paginationOpts: PaginationOptions) {
  const page = await ctx.db
    .query("settlements")
    .order("desc")
    .paginate({
      ...paginationOpts,
      numItems: Math.max(1, Math.min(paginationOpts.numItems, PAGE_SIZE)),
    });
  const nameOf = async (userId: Id<"users">) => {
    const user = await ctx.db.get("users", userId);
    return user?.name ?? user?.username ?? "";
  };
  return {
    ...page,
    page: await Promise.all(
      page.page.map(async (s) => {
        const pro = await ctx.db.get("professionals", s.professionalId);
        const [professional, admin] = await Promise.all([
          pro === null ? "" : nameOf(pro.userId),
          nameOf(s.adminId),
        ]);
        return {
          _id: s._id,
          at: s._creationTime,
          professional,
          admin,
          amountPaisa: s.amountPaisa,
          method: s.method,
          reference: s.reference,
        };
      }),
    ),
  };
}
