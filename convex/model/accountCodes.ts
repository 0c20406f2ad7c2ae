/**
 * One-time codes (rules/accountCodes.ts): 6 random digits, stored as a SHA-256 of the account, the
 * purpose and the code, valid 15 minutes, single-use, 5 wrong tries. One live code per account and
 * purpose: a new one replaces the old.
 *
 * Not @convex-dev/auth's verification codes: the library finds a code by its hash alone across all
 * accounts (a 6-digit guess would match whichever account holds it, and two accounts holding the same
 * code break its unique lookup) and counts failures against an identifier the client names. These are
 * looked up by account first, so a guess only ever tries one account's code.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { ACCOUNT_CODE } from "../rules/accountCodes";

export type CodePurpose = Doc<"accountCodes">["purpose"];

/** A uniformly random code of `digits` digits (rejection sampling, no modulo bias). */
export function newCode(digits: number = ACCOUNT_CODE.digits): string {
  const range = 10 ** digits;
  const limit = Math.floor(0x1_0000_0000 / range) * range;
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word);
  while (word[0]! >= limit);
  return String(word[0]! % range).padStart(digits, "0");
}

/** Stands in for an account id where there is no account: no document has it. */
const NO_ACCOUNT = "no account";

async function codeHash(userId: Id<"users">, purpose: CodePurpose, code: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${userId}:${purpose}:${code}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function liveRow(ctx: MutationCtx, userId: Id<"users">, purpose: CodePurpose) {
  return await ctx.db
    .query("accountCodes")
    .withIndex("by_userId_and_purpose", (q) => q.eq("userId", userId).eq("purpose", purpose))
    .unique();
}

/** Stores `code` as the account's live code for `purpose` (replacing any other). */
export async function storeCode(
  ctx: MutationCtx,
  userId: Id<"users">,
  purpose: CodePurpose,
  code: string,
): Promise<void> {
  const old = await liveRow(ctx, userId, purpose);
  if (old !== null) await ctx.db.delete("accountCodes", old._id);
  await ctx.db.insert("accountCodes", {
    userId,
    purpose,
    codeHash: await codeHash(userId, purpose, code),
    expiresAt: Date.now() + ACCOUNT_CODE.lifetimeMs,
    attemptsLeft: ACCOUNT_CODE.attempts,
  });
}

/**
 * True when `code` is the account's live code for `purpose`, which it then ends. A wrong code uses up
 * one try (the last ends the code); an expired code is ended. Without an account (`userId` null) it
 * does the same reads and hashing and answers false, so a wrong code for an unknown address costs
 * what one for a known address does.
 */
export async function redeemCode(
  ctx: MutationCtx,
  userId: Id<"users"> | null,
  purpose: CodePurpose,
  code: string,
): Promise<boolean> {
  if (userId === null) {
    await ctx.db
      .query("accountCodes")
      .withIndex("by_userId_and_purpose", (q) =>
        q.eq("userId", NO_ACCOUNT as Id<"users">).eq("purpose", purpose),
      )
      .unique();
    await codeHash(NO_ACCOUNT as Id<"users">, purpose, code);
    return false;
  }
  const row = await liveRow(ctx, userId, purpose);
  if (row === null) return false;
  if (row.expiresAt <= Date.now()) {
    await ctx.db.delete("accountCodes", row._id);
    return false;
  }
  if (row.codeHash === (await codeHash(userId, purpose, code))) {
    await ctx.db.delete("accountCodes", row._id);
    return true;
  }
  if (row.attemptsLeft <= 1) await ctx.db.delete("accountCodes", row._id);
  else await ctx.db.patch("accountCodes", row._id, { attemptsLeft: row.attemptsLeft - 1 });
  return false;
}

/** Ends the account's live code for `purpose`, if any. */
export async function endCode(
  ctx: MutationCtx,
  userId: Id<"users">,
  purpose: CodePurpose,
): Promise<void> {
  const row = await liveRow(ctx, userId, purpose);
  if (row !== null) await ctx.db.delete("accountCodes", row._id);
}

/** Ends every live code of the account (its password changed, or it was deleted). */
export async function endCodes(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const rows = await ctx.db
    .query("accountCodes")
    .withIndex("by_userId_and_purpose", (q) => q.eq("userId", userId))
    .take(10);
  for (const row of rows) await ctx.db.delete("accountCodes", row._id);
}
