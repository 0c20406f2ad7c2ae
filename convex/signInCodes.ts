import { v } from "convex/values";
import { internalMutation } from "./_generated/server";
import { publicMutation } from "./functions";
import { redeemSignInCode, requestSignInCode } from "./model/signInCodes";
import { locale } from "./validators";

const codeRole = v.union(v.literal("customer"), v.literal("professional"));

/**
 * Sign in by SMS code, step 1: sends a 6-digit code to `phone` when an account of `role` has it
 * verified, in `language` (the asking page's) or else the account's. Answers null either way; step
 * 2 is auth:signIn's "code" flow.
 */
export const request = publicMutation({
  args: { role: codeRole, phone: v.string(), language: v.optional(locale) },
  returns: v.null(),
  handler: async (ctx, { role, phone, language }) =>
    await requestSignInCode(ctx, role, phone, language),
});

/** Step 2's check of the code (auth.ts): the account it signs in, or null. */
export const redeem = internalMutation({
  args: { role: codeRole, phone: v.string(), code: v.string() },
  returns: v.union(v.null(), v.id("users")),
  handler: async (ctx, { role, phone, code }) => await redeemSignInCode(ctx, role, phone, code),
});
