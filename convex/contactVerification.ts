/**
 * Verify the signed-in account's email or phone number by a one-time code sent there
 * (model/contactVerification.ts).
 */
import { v } from "convex/values";
import { userMutation } from "./functions";
import { confirmVerificationCode, sendVerificationCode } from "./model/contactVerification";
import { locale } from "./validators";

const kind = v.union(v.literal("email"), v.literal("phone"));

/** Sends a 6-digit code to the account's own email address or mobile number. */
export const sendCode = userMutation({
  args: { kind, language: v.optional(locale) },
  returns: v.null(),
  handler: async (ctx, { kind, language }) => {
    await sendVerificationCode(ctx, ctx.viewer, kind, language);
    return null;
  },
});

/** The code that was sent: true once the address is verified, false for a wrong or old code. */
export const confirm = userMutation({
  args: { kind, code: v.string() },
  returns: v.boolean(),
  handler: async (ctx, { kind, code }) =>
    await confirmVerificationCode(ctx, ctx.viewer, kind, code),
});
