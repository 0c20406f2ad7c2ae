import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./_generated/server";
import { callerAction } from "./functions";
import { fail } from "./model/errors";
import { finishPasswordChange, passwordToCheck } from "./model/passwordChange";
import { hashPassword, verifyPassword } from "./model/passwords";
import { passwordRule } from "./rules/profile";
import { locale } from "./validators";

const caller = v.object({ userId: v.id("users"), sessionId: v.id("authSessions") });

/**
 * Change password (model/passwordChange.ts): the current one, then the new one. This device stays
 * signed in; every other one is signed out, and the account is told by email or SMS.
 */
export const change = callerAction({
  args: { currentPassword: v.string(), newPassword: v.string(), language: v.optional(locale) },
  returns: v.null(),
  handler: async (ctx, { currentPassword, newPassword, language }) => {
    const parsed = passwordRule.safeParse(newPassword);
    if (!parsed.success)
      fail("INVALID_INPUT", parsed.error.issues[0]?.message ?? "Invalid password");
    const { accountId, hash } = await ctx.runMutation(internal.passwordChange.tryPassword, {
      caller: ctx.caller,
    });
    if (!(await verifyPassword(currentPassword, hash)))
      fail("WRONG_PASSWORD", "Your current password is not correct.");
    await ctx.runMutation(internal.passwordChange.finish, {
      caller: ctx.caller,
      accountId,
      from: hash,
      to: await hashPassword(parsed.data),
      language,
    });
    return null;
  },
});

/** Counts a try of the caller's password; the hash it must match (also account deletion's check). */
export const tryPassword = internalMutation({
  args: { caller },
  returns: v.object({ accountId: v.id("authAccounts"), hash: v.string() }),
  handler: async (ctx, args) => await passwordToCheck(ctx, args.caller),
});

export const finish = internalMutation({
  args: {
    caller,
    accountId: v.id("authAccounts"),
    from: v.string(),
    to: v.string(),
    language: v.optional(locale),
  },
  returns: v.null(),
  handler: async (ctx, { caller, language, ...change }) => {
    await finishPasswordChange(ctx, caller, change, language);
    return null;
  },
});
