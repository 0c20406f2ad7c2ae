/**
 * Change password while signed in (and the password check of other acts that need it). The action (passwordChange.ts) checks the current password and
 * hashes the new one outside any transaction; these are the two transactions around that. A try counts
 * against the account's sign-in allowance (rateLimit.ts limitSignIn), so a borrowed session guesses
 * the password no faster than the sign-in form lets anyone. The new password ends every other session
 * and the account is told (passwordReset.ts passwordChanged).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { Locale } from "../constants";
import { fail } from "./errors";
import { passwordChanged } from "./passwordReset";
import { clearSignInTries, limitSignIn } from "./rateLimit";
import type { Caller } from "./sessions";
import { refuseAdminWithoutTwoFactor } from "./twoFactor";
import { roleOf } from "./users";

/** The caller's user, while their session lasts and the account is in good standing (functions.ts). */
export async function callerUser(ctx: MutationCtx, caller: Caller): Promise<Doc<"users">> {
  const [user, session] = await Promise.all([
    ctx.db.get("users", caller.userId),
    ctx.db.get("authSessions", caller.sessionId),
  ]);
  if (user === null || session?.userId !== caller.userId || user.suspended !== undefined)
    fail("UNAUTHENTICATED", "Please sign in to continue.");
  await refuseAdminWithoutTwoFactor(ctx, user);
  return user;
}

async function passwordAccount(ctx: MutationCtx, user: Doc<"users">) {
  const account = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id).eq("provider", roleOf(user)))
    .unique();
  if (account?.secret === undefined) fail("NOT_FOUND", "This account has no password to change.");
  return account as Doc<"authAccounts"> & { secret: string };
}

/**
 * Counts a try of the caller's password (changing it, deleting the account); the hash it must match.
 */
export async function passwordToCheck(
  ctx: MutationCtx,
  caller: Caller,
): Promise<{ accountId: Id<"authAccounts">; hash: string }> {
  const account = await passwordAccount(ctx, await callerUser(ctx, caller));
  await limitSignIn(ctx, account.providerAccountId);
  return { accountId: account._id, hash: account.secret };
}

/**
 * Stores `to` in place of `from` (a password changed meanwhile, by a reset or another device, wins and
 * this one fails); every other session ends and the account is told.
 */
export async function finishPasswordChange(
  ctx: MutationCtx,
  caller: Caller,
  change: { accountId: Id<"authAccounts">; from: string; to: string },
  language?: Locale,
): Promise<void> {
  const user = await callerUser(ctx, caller);
  const account = await ctx.db.get("authAccounts", change.accountId);
  if (account?.userId !== user._id || account.secret !== change.from)
    fail("AUTH_FAILED", "Your password changed meanwhile. Please try again.");
  await ctx.db.patch("authAccounts", account._id, { secret: change.to });
  await clearSignInTries(ctx, account.providerAccountId);
  await passwordChanged(ctx, user._id, { keepSession: caller.sessionId, language });
}
