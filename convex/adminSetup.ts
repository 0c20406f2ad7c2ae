/**
 * Admins' one-time setup links (model/adminSetup.ts). Issued by `npm run create-admin` and seed:init
 * with the admin key; redeemed by the admin provider's "setup" flow of auth:signIn (auth.ts).
 */
import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { finishSetup, issueSetupToken, redeemSetupToken } from "./model/adminSetup";

/** A new setup link's token for the admin `username` (older ones stop working); null: no such account. */
export const issue = internalMutation({
  args: { username: v.string() },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, { username }) => await issueSetupToken(ctx, username),
});

/** The "setup" flow's check of the link: the admin account it sets up (the link is spent), or null. */
export const redeem = internalMutation({
  args: { token: v.string() },
  returns: v.union(v.null(), v.object({ userId: v.id("users"), accountId: v.string() })),
  handler: async (ctx, { token }) => await redeemSetupToken(ctx, token),
});

/** After the link set the password: the old authenticator and every session end. */
export const finish = internalMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { userId }) => {
    await finishSetup(ctx, userId);
    return null;
  },
});
