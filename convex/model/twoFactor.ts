/**
 * Admins' second factor (rules/twoFactor.ts): a TOTP secret sealed at rest (model/twoFactorSecret.ts)
 * and recovery codes stored as SHA-256 hashes; neither is ever returned after setup. A TOTP code is
 * accepted once: its time step must be later than the last one accepted, so a code seen over a
 * shoulder or replayed within its window is refused. Guesses are counted per account
 * (rules/limits.ts twoFactor) when they miss; a miss returns rather than throws, so its count stays.
 */
import { Secret, TOTP as Totp } from "otpauth/slim";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { RATE_LIMITS } from "../rules/limits";
import {
  RECOVERY_ALPHABET,
  RECOVERY_CODES,
  TOTP,
  formatRecoveryCode,
  parseSecondFactor,
} from "../rules/twoFactor";
import { fail } from "./errors";
import { consume, hasRoom, type Counter } from "./rateLimit";
import { endAuthSession } from "./sessions";
import { openSecret, sealSecret } from "./twoFactorSecret";

export type Enrolment = Doc<"twoFactor">;

export async function enrolmentOf(ctx: QueryCtx, userId: Id<"users">): Promise<Enrolment | null> {
  return await ctx.db
    .query("twoFactor")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}

/** True once the admin has confirmed an authenticator: every sign-in then needs a code. */
export const isEnabled = (row: Enrolment | null): row is Enrolment & { enabledAt: number } =>
  row?.enabledAt !== undefined;

/**
 * An admin reads citizenship documents and suspends accounts: until an authenticator is set up, the
 * password alone opens nothing of that, whatever the client does. functions.ts asks on every call of a
 * signed-in user (it reads the admin's row, so confirming setup re-runs their subscribed queries).
 */
export async function awaitsTwoFactor(ctx: QueryCtx, user: Doc<"users">): Promise<boolean> {
  return user.role === "admin" && !isEnabled(await enrolmentOf(ctx, user._id));
}

export async function refuseAdminWithoutTwoFactor(ctx: QueryCtx, user: Doc<"users">) {
  if (await awaitsTwoFactor(ctx, user))
    fail("TWO_FACTOR_SETUP_REQUIRED", "Set up two-factor sign-in before using the admin panel.");
}

function totpOf(secret: Uint8Array, label: string) {
  return new Totp({
    issuer: TOTP.issuer,
    label,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
    secret: new Secret({ buffer: secret.slice().buffer }),
  });
}

/** The time step `code` belongs to (within the window around now), or null. */
function matchingStep(secret: Uint8Array, code: string): number | null {
  const now = Date.now();
  const delta = totpOf(secret, "").validate({ token: code, timestamp: now, window: TOTP.window });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP.periodSeconds) + delta;
}

async function recoveryHash(userId: Id<"users">, code: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${userId}:recovery:${code}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function randomRecoveryCode(): string {
  const out: string[] = [];
  const byte = new Uint8Array(1);
  // rejection sampling: 248 = 8 × 31, so every symbol is equally likely
  while (out.length < RECOVERY_CODES.length) {
    crypto.getRandomValues(byte);
    if (byte[0]! < 248) out.push(RECOVERY_ALPHABET[byte[0]! % RECOVERY_ALPHABET.length]!);
  }
  return out.join("");
}

/** New recovery codes: shown once (formatted), stored as hashes. */
async function newRecoveryCodes(userId: Id<"users">) {
  const codes = Array.from({ length: RECOVERY_CODES.count }, randomRecoveryCode);
  const hashes = await Promise.all(codes.map((code) => recoveryHash(userId, code)));
  return { shown: codes.map(formatRecoveryCode), hashes };
}

/**
 * Starts (or starts again) setting up an authenticator: a new secret, sealed, not yet enabled. The
 * otpauth:// URI and the key for typing in by hand are returned this once.
 */
export async function beginSetup(
  ctx: MutationCtx,
  admin: Doc<"users">,
): Promise<{ uri: string; key: string }> {
  const row = await enrolmentOf(ctx, admin._id);
  if (isEnabled(row))
    fail("TWO_FACTOR_ALREADY_ON", "Two-factor sign-in is already set up for this account.");
  const secret = crypto.getRandomValues(new Uint8Array(TOTP.secretBytes));
  const sealed = await sealSecret(secret, admin._id);
  if (row === null)
    await ctx.db.insert("twoFactor", {
      userId: admin._id,
      secret: sealed,
      setupStartedAt: Date.now(),
      recoveryCodes: [],
    });
  else await ctx.db.patch("twoFactor", row._id, { secret: sealed, setupStartedAt: Date.now() });
  const totp = totpOf(secret, admin.username ?? admin.name ?? "admin");
  return { uri: totp.toString(), key: totp.secret.base32 };
}

const guessCounters = (userId: Id<"users">): Counter[] => [
  {
    action: "twoFactor",
    scope: "perAccountDaily",
    actor: userId,
    allowance: RATE_LIMITS.twoFactor.perAccountDaily,
  },
  {
    action: "twoFactor",
    scope: "perAccount",
    actor: userId,
    allowance: RATE_LIMITS.twoFactor.perAccount,
  },
];

/** False when the account has no wrong guesses left. */
async function mayGuess(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  for (const counter of guessCounters(userId)) if (!(await hasRoom(ctx, counter))) return false;
  return true;
}

/** A wrong code: counted, so the admin's own right codes never use up the allowance. */
async function missed(ctx: MutationCtx, userId: Id<"users">): Promise<"wrong"> {
  for (const counter of guessCounters(userId)) await consume(ctx, counter);
  return "wrong";
}

export type CheckOutcome = "ok" | "wrong" | "limited";

/** Checks a TOTP code against the row's secret; on a match its step becomes the last one used. */
async function acceptTotp(ctx: MutationCtx, row: Enrolment, code: string): Promise<boolean> {
  const secret = await openSecret(row.secret, row.userId);
  if (secret === null) return false;
  const step = matchingStep(secret, code);
  if (step === null || (row.lastStep !== undefined && step <= row.lastStep)) return false;
  await ctx.db.patch("twoFactor", row._id, { lastStep: step });
  return true;
}

/**
 * Confirms setup with the first code from the authenticator: enables two-factor, ends the admin's
 * other sessions (they were opened with a password alone) and returns the recovery codes, once.
 */
export async function confirmSetup(
  ctx: MutationCtx,
  admin: Doc<"users">,
  sessionId: Id<"authSessions">,
  code: string,
): Promise<{ recoveryCodes: string[] } | CheckOutcome> {
  const row = await enrolmentOf(ctx, admin._id);
  if (isEnabled(row))
    fail("TWO_FACTOR_ALREADY_ON", "Two-factor sign-in is already set up for this account.");
  if (row === null || Date.now() - row.setupStartedAt > TOTP.setupLifetimeMs)
    fail("TWO_FACTOR_SETUP_EXPIRED", "This setup has expired; start again.");
  if (!(await mayGuess(ctx, admin._id))) return "limited";
  const parsed = parseSecondFactor(code);
  if (parsed?.kind !== "totp" || !(await acceptTotp(ctx, row, parsed.code)))
    return await missed(ctx, admin._id);
  const { shown, hashes } = await newRecoveryCodes(admin._id);
  await ctx.db.patch("twoFactor", row._id, { enabledAt: Date.now(), recoveryCodes: hashes });
  const sessions = await ctx.db
    .query("authSessions")
    .withIndex("userId", (q) => q.eq("userId", admin._id))
    .take(500);
  for (const session of sessions)
    if (session._id !== sessionId) await endAuthSession(ctx, session._id);
  return { recoveryCodes: shown };
}

/** New recovery codes in place of the old, for a current TOTP code. */
export async function replaceRecoveryCodes(
  ctx: MutationCtx,
  admin: Doc<"users">,
  code: string,
): Promise<{ recoveryCodes: string[] } | CheckOutcome> {
  const row = await enrolmentOf(ctx, admin._id);
  if (!isEnabled(row)) fail("TWO_FACTOR_NOT_ON", "Set up two-factor sign-in first.");
  if (!(await mayGuess(ctx, admin._id))) return "limited";
  const parsed = parseSecondFactor(code);
  if (parsed?.kind !== "totp" || !(await acceptTotp(ctx, row, parsed.code)))
    return await missed(ctx, admin._id);
  const { shown, hashes } = await newRecoveryCodes(admin._id);
  await ctx.db.patch("twoFactor", row._id, { recoveryCodes: hashes });
  return { recoveryCodes: shown };
}

/**
 * The second factor of an admin's sign-in, after the right password: "ok" without an enabled
 * authenticator (the web app sends such an admin to set one up), "required" when one is enabled and
 * no code came, otherwise the outcome of the code: a TOTP code or one recovery code, which is spent.
 */
export async function checkSignIn(
  ctx: MutationCtx,
  userId: Id<"users">,
  code: string | undefined,
): Promise<CheckOutcome | "required"> {
  const row = await enrolmentOf(ctx, userId);
  if (!isEnabled(row)) return "ok";
  if (code === undefined || code === "") return "required";
  if (!(await mayGuess(ctx, userId))) return "limited";
  const parsed = parseSecondFactor(code);
  if (parsed === null) return await missed(ctx, userId);
  if (parsed.kind === "totp")
    return (await acceptTotp(ctx, row, parsed.code)) ? "ok" : await missed(ctx, userId);
  const hash = await recoveryHash(userId, parsed.code);
  if (!row.recoveryCodes.includes(hash)) return await missed(ctx, userId);
  await ctx.db.patch("twoFactor", row._id, {
    recoveryCodes: row.recoveryCodes.filter((h) => h !== hash),
  });
  return "ok";
}

/** A deleted admin's enrolment goes with the account. */
export async function forgetEnrolment(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const row = await enrolmentOf(ctx, userId);
  if (row !== null) await ctx.db.delete("twoFactor", row._id);
}
