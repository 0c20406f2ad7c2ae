import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { publicMutation } from "./functions";
import { passwordChanged, redeemReset, requestReset } from "./model/passwordReset";
import { locale } from "./validators";

const resetRole = v.union(v.literal("customer"), v.literal("professional"));

/**
 * Forgot password, step 1: sends a 6-digit code to `contact` (email or mobile) when an account of
 * `role` has it, in `language` (the asking page's) or else the account's. Answers null either way;
 * step 2 is auth:signIn's "reset" flow.
 */
export const request = publicMutation({
  args: { role: resetRole, contact: v.string(), language: v.optional(locale) },
  returns: v.null(),
  handler: async (ctx, { role, contact, language }) =>
    await requestReset(ctx, role, contact, language),
});

/** Step 2's check of the code (auth.ts): the account it resets, or null. */
export const redeem = internalMutation({
  args: { role: resetRole, contact: v.string(), code: v.string() },
  returns: v.union(v.null(), v.object({ userId: v.id("users"), accountId: v.string() })),
  handler: async (ctx, { role, contact, code }) => await redeemReset(ctx, role, contact, code),
});

/** After a new password is stored: sessions end (but `keepSession`), codes go, the account is told. */
export const changed = internalMutation({
  args: {
    userId: v.id("users"),
    keepSession: v.optional(v.id("authSessions")),
    language: v.optional(locale),
  },
  returns: v.null(),
  handler: async (ctx, { userId, ...told }) => {
    await passwordChanged(ctx, userId, told);
    return null;
  },
});
