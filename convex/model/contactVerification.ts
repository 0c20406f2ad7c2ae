/**
 * Verified email and phone: a one-time code (model/accountCodes.ts: 6 digits, 15 minutes, single-use,
 * 5 wrong tries) sent to the account's own address, never one the caller names. A right code marks
 * that address verified (the users fields @convex-dev/auth defines for it); changing the phone number
 * clears its mark and ends its code (users:updateProfile). The admins' technician cards show whether a
 * professional's phone is verified (model/professionals.ts adminRow).
 */
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { Locale } from "../constants";
import { mobileDigits, typedAccountCode, type Contact } from "../rules/accountCodes";
import { endCode, redeemCode, requestCode, type CodePurpose } from "./accountCodes";
import { verifyCodeMessage } from "./delivery/accountMessages";
import { fail } from "./errors";

export type ContactKind = "email" | "phone";

const PURPOSE: Record<ContactKind, CodePurpose> = { email: "verifyEmail", phone: "verifyPhone" };
const FIELD = { email: "emailVerificationTime", phone: "phoneVerificationTime" } as const;

/** Whether the account's email / phone number is verified. */
export const isVerified = (user: Doc<"users">, kind: ContactKind): boolean =>
  user[FIELD[kind]] !== undefined;

/** Where a code for `kind` goes: the account's own address, or a refusal when it has none. */
function contactOf(user: Doc<"users">, kind: ContactKind): Contact {
  if (kind === "email") {
    if (!user.email) fail("NO_CONTACT", "This account has no email address to verify.");
    return { kind: "email", value: user.email };
  }
  const mobile = mobileDigits(user.phone);
  if (mobile === null)
    fail("NO_CONTACT", "Only a Nepali mobile number (98/97…) can receive a code by SMS.");
  return { kind: "phone", value: mobile };
}

/** Sends a new code to the account's email or mobile (replacing an earlier one), within its limits. */
export async function sendVerificationCode(
  ctx: MutationCtx,
  user: Doc<"users">,
  kind: ContactKind,
  language?: Locale,
): Promise<void> {
  if (isVerified(user, kind)) fail("CONTACT_VERIFIED", "This is verified already.");
  const to = contactOf(user, kind);
  await requestCode(ctx, {
    action: "verifyCode",
    purpose: PURPOSE[kind],
    asker: { account: user },
    language,
    message: (code, locale) => verifyCodeMessage(to, code, locale),
  });
}

/** True when `code` is the live code for `kind`: the address is then verified. */
export async function confirmVerificationCode(
  ctx: MutationCtx,
  user: Doc<"users">,
  kind: ContactKind,
  code: string,
): Promise<boolean> {
  const typed = typedAccountCode(code);
  if (typed === null || !(await redeemCode(ctx, user._id, PURPOSE[kind], typed))) return false;
  await ctx.db.patch("users", user._id, { [FIELD[kind]]: Date.now() });
  return true;
}

/**
 * A new phone number is not verified: its mark and any code sent to the old number (to verify it or
 * to sign in by it, model/signInCodes.ts) go.
 */
export async function phoneChanged(ctx: MutationCtx, user: Doc<"users">): Promise<void> {
  if (user.phoneVerificationTime !== undefined)
    await ctx.db.patch("users", user._id, { phoneVerificationTime: undefined });
  await endCode(ctx, user._id, PURPOSE.phone);
  await endCode(ctx, user._id, "signIn");
}
