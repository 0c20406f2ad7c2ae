/**
 * One-time setup links for admins (rules/adminSetup.ts). `npm run create-admin` issues one for a new
 * admin, or again for an existing one; its holder sets the admin's password through the admin
 * provider's "setup" flow (auth.ts) and is signed in, and the admin panel then asks for two-factor
 * setup as for any admin without it. Redeeming a link is a full reset of the admin's credentials: the
 * authenticator and every session end with it.
 *
 * Tokens are stored as SHA-256 hashes and found by hash, so the stored row does not give the link
 * away; a link is deleted when redeemed (single-use), when it expires, or when a new one is issued.
 * Every redemption try is counted (rules/limits.ts adminSetup) before the lookup.
 */
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { ADMIN_SETUP, isSetupTokenShaped } from "../rules/adminSetup";
import { RATE_LIMITS } from "../rules/limits";
import { fail } from "./errors";
import { passwordChanged } from "./passwordReset";
import { consume } from "./rateLimit";
import { forgetEnrolment } from "./twoFactor";
import { userByUsername } from "./users";

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

async function tokenHash(token: string): Promise<string> {
  const bytes = new TextEncoder().encode(`admin-setup:${token}`);
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

async function linksOf(ctx: MutationCtx, userId: Id<"users">) {
  return await ctx.db
    .query("adminSetupTokens")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(10);
}

/** A deleted admin's setup links go with the account. */
export async function forgetSetupLinks(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  for (const link of await linksOf(ctx, userId)) await ctx.db.delete("adminSetupTokens", link._id);
}

/**
 * A new setup link's token for the admin `username` (any older link of theirs stops working); null
 * when no account has that username. Refused for an account that is not an admin.
 */
export async function issueSetupToken(ctx: MutationCtx, username: string): Promise<string | null> {
  const user = await userByUsername(ctx, username);
  if (user === null) return null;
  if (user.role !== "admin") fail("FORBIDDEN", "This account is not an admin.");
  await forgetSetupLinks(ctx, user._id);
  const token = hex(crypto.getRandomValues(new Uint8Array(ADMIN_SETUP.tokenBytes)));
  await ctx.db.insert("adminSetupTokens", {
    userId: user._id,
    tokenHash: await tokenHash(token),
    expiresAt: Date.now() + ADMIN_SETUP.lifetimeMs,
  });
  return token;
}

/**
 * The admin a live setup link belongs to (the link is spent), with the id the admin provider knows
 * the account by; null for a wrong, used or expired link, or one whose account is no longer an
 * active admin (all alike to the caller). Throws RATE_LIMITED when everyone's tries are used up.
 */
export async function redeemSetupToken(
  ctx: MutationCtx,
  token: string,
): Promise<{ userId: Id<"users">; accountId: string } | null> {
  await consume(
    ctx,
    {
      action: "adminSetup",
      scope: "everyone",
      actor: "",
      allowance: RATE_LIMITS.adminSetup.everyone,
    },
    "Too many setup links tried",
  );
  if (!isSetupTokenShaped(token)) return null;
  const hash = await tokenHash(token);
  const row = await ctx.db
    .query("adminSetupTokens")
    .withIndex("by_tokenHash", (q) => q.eq("tokenHash", hash))
    .unique();
  if (row === null) return null;
  await ctx.db.delete("adminSetupTokens", row._id);
  if (row.expiresAt <= Date.now()) return null;
  const user = await ctx.db.get("users", row.userId);
  if (user?.role !== "admin" || user.suspended !== undefined) return null;
  const account = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id).eq("provider", "admin"))
    .unique();
  return account === null ? null : { userId: user._id, accountId: account.providerAccountId };
}

/**
 * After a setup link set the password: the old authenticator goes (the holder sets up a new one next)
 * and every session of the admin ends, as after any password change.
 */
export async function finishSetup(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  await forgetEnrolment(ctx, userId);
  await passwordChanged(ctx, userId);
}
