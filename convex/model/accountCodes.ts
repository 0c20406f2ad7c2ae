/**
 * One-time codes (rules/accountCodes.ts): 6 random digits, stored as a SHA-256 of the account, the
 * purpose and the code, valid 15 minutes, single-use, 5 wrong tries. One live code per account and
 * purpose: a new one replaces the old.
 *
 * Not @convex-dev/auth's verification codes: the library finds a code by its hash alone across all
 * accounts (a 6-digit guess would match whichever account holds it, and two accounts holding the same
 * code break its unique lookup) and counts failures against an identifier the client names. These are
 * looked up by account first, so a guess only ever tries one account's code.
 *
 * Asking for one (requestCode) is counted by rules/limits.ts accountCode, the same for every purpose.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { Locale } from "../constants";
import { ACCOUNT_CODE } from "../rules/accountCodes";
import { RATE_LIMITS, type Allowance } from "../rules/limits";
import { queueMessage, type QueuedMessage } from "./delivery/queue";
import { consume, tryConsume, type Counter } from "./rateLimit";

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

/** The lookup and hashing of a code, for no account: an unknown address costs what a known one does. */
async function noAccountWork(ctx: MutationCtx, purpose: CodePurpose, code: string): Promise<void> {
  await liveRow(ctx, NO_ACCOUNT as Id<"users">, purpose);
  await codeHash(NO_ACCOUNT as Id<"users">, purpose, code);
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
 * Who asks for a code: a signed-in account for its own address, or anyone naming an address, with the
 * one account that may receive a code there (null when none may: the asker is not told).
 */
export type CodeAsker =
  { account: Doc<"users"> } | { address: string; account: Doc<"users"> | null };

/**
 * Sends a new code for `purpose` (replacing the live one) as `message` builds it, in `language` (the
 * asking page's) or else the account's. Counted under `action` (rules/limits.ts accountCode): per
 * address named, or per account asking for its own, and everyone's ceiling; over one, it throws
 * RATE_LIMITED. A named address answers alike with an account or without: the account's own
 * allowance is counted silently (over it, nothing is sent), and without one the code is still made,
 * looked up and hashed.
 */
export async function requestCode(
  ctx: MutationCtx,
  {
    action,
    purpose,
    asker,
    language,
    message,
  }: {
    action: string;
    purpose: CodePurpose;
    asker: CodeAsker;
    language?: Locale;
    message: (code: string, locale?: Locale) => QueuedMessage;
  },
): Promise<void> {
  const { perAddress, perAccount, everyone } = RATE_LIMITS.accountCode;
  const counter = (scope: string, actor: string, allowance: Allowance): Counter => ({
    action,
    scope,
    actor,
    allowance,
  });
  const tooMany = "Too many codes asked for";
  const { account } = asker;
  const named = "address" in asker;
  await consume(
    ctx,
    named
      ? counter("perAddress", asker.address, perAddress)
      : counter("perAccount", asker.account._id, perAccount),
    tooMany,
  );
  await consume(ctx, counter("everyone", "", everyone), tooMany);
  const code = newCode();
  if (account === null) return await noAccountWork(ctx, purpose, code);
  if (named && !(await tryConsume(ctx, counter("perAccount", account._id, perAccount)))) return;
  await storeCode(ctx, account._id, purpose, code);
  await queueMessage(ctx, message(code, language ?? account.language));
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
    await noAccountWork(ctx, purpose, code);
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
