/**
 * Signing in by a code sent by SMS (customers and professionals, as Nepali apps do): a Nepali mobile
 * number, then the 6-digit code sent there (model/accountCodes.ts: 15 minutes, single-use, 5 wrong
 * tries), redeemed by the "code" flow of the role's own provider in auth.ts, so there is still one
 * way in per role. Only a verified phone number (model/contactVerification.ts) receives one.
 *
 * Asking answers the same whether or not an account has that number, and costs the same work: the
 * code is made either way and sent after the mutation commits. Limits (rules/limits.ts accountCode,
 * as forgot password's): per number asked about, per account sent to, and everyone's ceiling; each
 * try of a code counts as a password sign-in's try does (rules/limits.ts signIn), known number or not.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { Locale } from "../constants";
import { mobileDigits, typedAccountCode } from "../rules/accountCodes";
import { redeemCode, requestCode } from "./accountCodes";
import { isVerified } from "./contactVerification";
import { signInCodeMessage } from "./delivery/accountMessages";
import { fail } from "./errors";
import { clearSignInTries, limitSignIn } from "./rateLimit";
import { roleOf } from "./users";

export type CodeRole = "customer" | "professional";

/** Longer than any way of writing a mobile number ("+977 98-1234-5678"). */
const MAX_INPUT = 32;

const parseMobile = (input: string): string | null =>
  input.length > MAX_INPUT ? null : mobileDigits(input);

/** The one account of `role` that may sign in by a code to `mobile`, or null. */
async function accountOf(
  ctx: QueryCtx,
  role: CodeRole,
  mobile: string,
): Promise<Doc<"users"> | null> {
  const users = await ctx.db
    .query("users")
    .withIndex("phone", (q) => q.eq("phone", mobile))
    .take(2);
  const matching = users.filter((u) => roleOf(u) === role);
  const user = matching.length === 1 ? matching[0]! : null;
  return user !== null && isVerified(user, "phone") && user.suspended === undefined ? user : null;
}

/** Asks for a sign-in code; answers null whatever the outcome, once the number's allowance allows. */
export async function requestSignInCode(
  ctx: MutationCtx,
  role: CodeRole,
  input: string,
  language?: Locale,
): Promise<null> {
  const mobile = parseMobile(input);
  if (mobile === null) fail("INVALID_INPUT", "Enter your Nepali mobile number (98/97…).");
  await requestCode(ctx, {
    action: "signInCode",
    purpose: "signIn",
    asker: { address: mobile, account: await accountOf(ctx, role, mobile) },
    language,
    message: (code, locale) => signInCodeMessage(mobile, code, locale),
  });
  return null;
}

/**
 * The account a right code signs in (and the code ended); null for a wrong, used or expired code, or
 * no such account (all alike to the caller). A wrong code uses up one of its tries.
 */
export async function redeemSignInCode(
  ctx: MutationCtx,
  role: CodeRole,
  input: string,
  code: string,
): Promise<Id<"users"> | null> {
  const mobile = parseMobile(input);
  const typed = typedAccountCode(code);
  if (mobile === null || typed === null) return null;
  // "sms:" keeps a number's count apart from an admin username written in digits
  const tries = `sms:${mobile}`;
  await limitSignIn(ctx, tries);
  const user = await accountOf(ctx, role, mobile);
  // an unknown number's code is looked up and hashed as a known one's: wrong codes take alike
  const redeemed = await redeemCode(ctx, user?._id ?? null, "signIn", typed);
  if (user === null || !redeemed) return null;
  await clearSignInTries(ctx, tries);
  return user._id;
}
