/**
 * Forgot password: a code to the account's email or mobile, then a new password with it (the
 * "reset" flow of the role providers in auth.ts). Asking answers the same whether or not an account
 * has that address, and costs the same work: the code is made and hashed either way, and sent after
 * the mutation commits. Limits (rules/limits.ts accountCode): per address asked about, per account
 * sent to, and everyone's ceiling.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { Locale } from "../constants";
import { mobileDigits, parseContact, typedAccountCode, type Contact } from "../rules/accountCodes";
import { endCodes, redeemCode, requestCode } from "./accountCodes";
import { passwordChangedMessage, resetCodeMessage } from "./delivery/accountMessages";
import { queueMessage } from "./delivery/queue";
import { fail } from "./errors";
import { endAuthSession } from "./sessions";
import { roleOf } from "./users";

export type ResetRole = "customer" | "professional";

function contactOrFail(input: string): Contact {
  const contact = parseContact(input);
  if (contact === null)
    fail("INVALID_INPUT", "Enter your email address or Nepali mobile number (98/97…).");
  return contact;
}

/** The one account of `role` with this email or mobile number, unless suspended; else null. */
async function accountOf(
  ctx: QueryCtx,
  role: ResetRole,
  contact: Contact,
): Promise<Doc<"users"> | null> {
  const users = await ctx.db
    .query("users")
    .withIndex(contact.kind, (q) => q.eq(contact.kind, contact.value))
    .take(2);
  const matching = users.filter((u) => roleOf(u) === role);
  const user = matching.length === 1 ? matching[0]! : null;
  return user !== null && user.suspended === undefined ? user : null;
}

/** Asks for a reset code; answers null whatever the outcome, once the address's allowance allows. */
export async function requestReset(
  ctx: MutationCtx,
  role: ResetRole,
  input: string,
  language?: Locale,
): Promise<null> {
  const contact = contactOrFail(input);
  await requestCode(ctx, {
    action: "resetCode",
    purpose: "reset",
    asker: { address: contact.value, account: await accountOf(ctx, role, contact) },
    language,
    message: (code, locale) => resetCodeMessage(contact, code, locale),
  });
  return null;
}

/**
 * The account a right code resets (and the code ended), with the id its password provider knows it
 * by; null for a wrong, used or expired code, or no such account (all alike to the caller).
 */
export async function redeemReset(
  ctx: MutationCtx,
  role: ResetRole,
  input: string,
  code: string,
): Promise<{ userId: Id<"users">; accountId: string } | null> {
  const contact = parseContact(input);
  const typed = typedAccountCode(code);
  if (contact === null || typed === null) return null;
  const user = await accountOf(ctx, role, contact);
  // an unknown or suspended address does a known one's lookup and hashing: no enumeration by timing
  const redeemed = await redeemCode(ctx, user?._id ?? null, "reset", typed);
  if (user === null || !redeemed) return null;
  const account = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id).eq("provider", role))
    .unique();
  return account === null ? null : { userId: user._id, accountId: account.providerAccountId };
}

/**
 * After a password change: every session of the account ends but `keepSession` (the one signing in
 * next is new), its other codes and failed-password count go, and it is told where it can read it,
 * in `language` (the changing page's) or else the account's.
 */
export async function passwordChanged(
  ctx: MutationCtx,
  userId: Id<"users">,
  { keepSession, language }: { keepSession?: Id<"authSessions">; language?: Locale } = {},
): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (user === null) return;
  const sessions = await ctx.db
    .query("authSessions")
    .withIndex("userId", (q) => q.eq("userId", userId))
    .take(500);
  for (const session of sessions)
    if (session._id !== keepSession) await endAuthSession(ctx, session._id);
  await endCodes(ctx, userId);
  const accounts = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", userId))
    .take(5);
  for (const account of accounts) {
    const failures = await ctx.db
      .query("authRateLimits")
      .withIndex("identifier", (q) => q.eq("identifier", account._id))
      .unique();
    if (failures !== null) await ctx.db.delete("authRateLimits", failures._id);
  }
  const mobile = mobileDigits(user.phone);
  const to: Contact | null = user.email
    ? { kind: "email", value: user.email }
    : mobile !== null
      ? { kind: "phone", value: mobile }
      : null;
  if (to !== null) await queueMessage(ctx, passwordChangedMessage(to, language ?? user.language));
}
