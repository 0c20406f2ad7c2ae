/**
 * Two-factor sign-in for admins (model/twoFactor.ts): set up an authenticator app, get recovery
 * codes, replace them. The sign-in side is `check`, run by auth.ts after the right password.
 */
import { getAuthSessionId } from "@convex-dev/auth/server";
import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { adminMutation, setupAdminMutation, setupAdminQuery } from "./functions";
import { fail } from "./model/errors";
import {
  beginSetup,
  checkSignIn,
  confirmSetup,
  enrolmentOf,
  isEnabled,
  replaceRecoveryCodes,
  type CheckOutcome,
} from "./model/twoFactor";

/** The signed-in admin's two-factor state: on or not, and how many recovery codes are unused. */
export const status = setupAdminQuery({
  args: {},
  returns: v.object({ enabled: v.boolean(), recoveryCodesLeft: v.number() }),
  handler: async (ctx) => {
    const row = await enrolmentOf(ctx, ctx.viewer._id);
    return isEnabled(row)
      ? { enabled: true, recoveryCodesLeft: row.recoveryCodes.length }
      : { enabled: false, recoveryCodesLeft: 0 };
  },
});

/** A new authenticator secret, shown this once as an otpauth:// URI and as a key to type. */
export const begin = setupAdminMutation({
  args: {},
  returns: v.object({ uri: v.string(), key: v.string() }),
  handler: async (ctx) => await beginSetup(ctx, ctx.viewer),
});

const codes = v.object({ recoveryCodes: v.array(v.string()) });

function codesOrFail(outcome: { recoveryCodes: string[] } | CheckOutcome) {
  if (outcome === "limited")
    fail("TOO_MANY_ATTEMPTS", "Too many wrong codes; try again in 15 minutes.");
  if (outcome === "wrong" || outcome === "ok") return null;
  return outcome;
}

/**
 * The first code from the authenticator: two-factor is on, the admin's other sessions end, and the
 * recovery codes are returned this once. Null for a wrong code (it counts as a guess).
 */
export const confirm = setupAdminMutation({
  args: { code: v.string() },
  returns: v.union(codes, v.null()),
  handler: async (ctx, { code }) => {
    const sessionId = await getAuthSessionId(ctx);
    if (sessionId === null) fail("UNAUTHENTICATED", "Please sign in to continue.");
    return codesOrFail(await confirmSetup(ctx, ctx.viewer, sessionId, code));
  },
});

/** New recovery codes for a current authenticator code; the old ones stop working. Null: wrong code. */
export const replaceRecovery = adminMutation({
  args: { code: v.string() },
  returns: v.union(codes, v.null()),
  handler: async (ctx, { code }) => codesOrFail(await replaceRecoveryCodes(ctx, ctx.viewer, code)),
});

/** auth.ts, after an admin's right password: whether the second factor lets them in. */
export const check = internalMutation({
  args: { userId: v.id("users"), code: v.optional(v.string()) },
  returns: v.union(
    v.literal("ok"),
    v.literal("required"),
    v.literal("wrong"),
    v.literal("limited"),
  ),
  handler: async (ctx, { userId, code }) => await checkSignIn(ctx, userId, code),
});
