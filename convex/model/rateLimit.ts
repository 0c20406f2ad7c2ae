/**
 * Request limits per actor, in fixed windows kept in the `rateLimits` table (one row per counter,
 * overwritten as windows pass). Actors are what a mutation can tell apart: a signed-in user, an email
 * address, a sign-up draft (model/signUpDrafts.ts, counted on its own row); beside them one generous
 * ceiling with a window of seconds for everyone together. The allowances are in rules/limits.ts and
 * the reasoning in the README ("Abuse limits").
 *
 * A refused call throws, which rolls back the whole mutation: nothing it counted stays counted, so a
 * flood refused per actor does not use up the shared ceiling.
 *
 * (@convex-dev/rate-limiter is a Convex component, which the offline local backend cannot run.
 * Password sign-ins are counted here too, not in @convex-dev/auth's authRateLimits, which only knows
 * existing accounts: an unknown email must be limited as a known one is, or the limit tells them apart.)
 */
import { ConvexError } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DRAFT_LIMITS, RATE_LIMITS, type Allowance } from "../rules/limits";
import { fail, refusal, type Refusal } from "./errors";

export { DRAFT_LIMITS, RATE_LIMITS };

/** One counter: an action, whose allowance it is ("perUser", "everyone", ...) and the actor's key. */
export type Counter = { action: string; scope: string; actor: string; allowance: Allowance };

export function rateLimited(retryAfterMs: number, message?: string): ConvexError<Refusal> {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait =
    seconds < 90
      ? `${seconds} second${seconds === 1 ? "" : "s"}`
      : `${Math.ceil(seconds / 60)} minutes`;
  return refusal(
    "RATE_LIMITED",
    `${message ?? "Too many requests"}, please try again in ${wait}.`,
    { retryAfterMs },
  );
}

async function windowOf(ctx: QueryCtx, counter: Counter) {
  const key = `${counter.action}:${counter.scope}:${counter.actor}`;
  const row = await ctx.db
    .query("rateLimits")
    .withIndex("by_key", (q) => q.eq("key", key))
    .unique();
  const now = Date.now();
  const current = row !== null && now - row.windowStart < counter.allowance.windowMs;
  return { key, row, now, current, full: current && row.count >= counter.allowance.max };
}

/** Counts one call; throws RATE_LIMITED ("<message>, please try again in ...") when the window is full. */
export async function consume(ctx: MutationCtx, counter: Counter, message?: string): Promise<void> {
  const { key, row, now, current, full } = await windowOf(ctx, counter);
  if (full) throw rateLimited(row!.windowStart + counter.allowance.windowMs - now, message);
  if (row === null) {
    await ctx.db.insert("rateLimits", { key, windowStart: now, count: 1 });
  } else {
    await ctx.db.patch(
      "rateLimits",
      row._id,
      current ? { count: row.count + 1 } : { windowStart: now, count: 1 },
    );
  }
}

/** Counts one call when its window has room; false (nothing counted) when it is full. */
export async function tryConsume(ctx: MutationCtx, counter: Counter): Promise<boolean> {
  const { row, full } = await windowOf(ctx, counter);
  if (full && row !== null) return false;
  await consume(ctx, counter);
  return true;
}

/** True when `counter`'s window has room for one more call (nothing counted). */
export async function hasRoom(ctx: QueryCtx, counter: Counter): Promise<boolean> {
  return !(await windowOf(ctx, counter)).full;
}

/** Throws as `consume` would, without counting. */
export async function assertRoom(ctx: QueryCtx, counter: Counter, message?: string): Promise<void> {
  const { row, now, full } = await windowOf(ctx, counter);
  if (full) throw rateLimited(row!.windowStart + counter.allowance.windowMs - now, message);
}

/** The contact form: per signed-in user; visitors share one allowance (they have nothing else to tell them apart). */
export async function limitContact(ctx: MutationCtx, viewer: Doc<"users"> | null): Promise<void> {
  const { perUser, everyVisitor } = RATE_LIMITS.contact;
  await consume(
    ctx,
    viewer === null
      ? { action: "contact", scope: "everyVisitor", actor: "", allowance: everyVisitor }
      : { action: "contact", scope: "perUser", actor: viewer._id, allowance: perUser },
    "Too many messages",
  );
}

/** Who asks for an upload URL: a signed-in user, or a visitor's sign-up draft. */
export type Uploader = { user: Doc<"users"> } | { draft: Doc<"signUpDrafts"> };

/** An upload URL: per signed-in user; per draft (its lifetime allowance) within the visitors' ceiling. */
export async function limitUpload(ctx: MutationCtx, uploader: Uploader): Promise<void> {
  const { perUser, everyVisitor } = RATE_LIMITS.upload;
  if ("user" in uploader) {
    await consume(
      ctx,
      { action: "upload", scope: "perUser", actor: uploader.user._id, allowance: perUser },
      "Too many uploads",
    );
    return;
  }
  const { draft } = uploader;
  if (draft.uploads >= DRAFT_LIMITS.uploads) {
    fail(
      "DRAFT_USED_UP",
      `A sign-up may upload at most ${DRAFT_LIMITS.uploads} files; please try again.`,
    );
  }
  await ctx.db.patch("signUpDrafts", draft._id, { uploads: draft.uploads + 1 });
  await consume(
    ctx,
    { action: "upload", scope: "everyVisitor", actor: "", allowance: everyVisitor },
    "Too many uploads right now",
  );
}

const emailCounter = (email: string): Counter => ({
  action: "signUp",
  scope: "perEmail",
  actor: email,
  allowance: RATE_LIMITS.signUp.perEmail,
});
const EMAIL_MESSAGE = "Too many sign-ups with this email";

/** Throws when `email` has no sign-up attempts left in its window (nothing is counted). */
export async function assertEmailMayTry(ctx: QueryCtx, email: string): Promise<void> {
  await assertRoom(ctx, emailCounter(email), EMAIL_MESSAGE);
}

/** A sign-up attempt (before its password is hashed): per draft, per email address, then everyone's ceiling. */
export async function limitSignUp(
  ctx: MutationCtx,
  draft: Doc<"signUpDrafts">,
  email: string,
): Promise<void> {
  const { everyone } = RATE_LIMITS.signUp;
  if (draft.signUps >= DRAFT_LIMITS.signUps) {
    fail(
      "DRAFT_USED_UP",
      `A sign-up may be tried at most ${DRAFT_LIMITS.signUps} times; please try again.`,
    );
  }
  await ctx.db.patch("signUpDrafts", draft._id, { signUps: draft.signUps + 1 });
  await consume(ctx, emailCounter(email), EMAIL_MESSAGE);
  await consume(
    ctx,
    { action: "signUp", scope: "everyone", actor: "", allowance: everyone },
    "Too many sign-ups right now",
  );
}

const signInCounter = (account: string): Counter => ({
  action: "signIn",
  scope: "perAccount",
  actor: account,
  allowance: RATE_LIMITS.signIn.perAccount,
});

/**
 * A password sign-in, counted before its password is hashed, whether `account` (a normalised email
 * or admin username) exists or not: everyone's ceiling, then the account's tries. Throws
 * TOO_MANY_ATTEMPTS when the account has none left (also for the right password).
 */
export async function limitSignIn(ctx: MutationCtx, account: string): Promise<void> {
  await consume(
    ctx,
    { action: "signIn", scope: "everyone", actor: "", allowance: RATE_LIMITS.signIn.everyone },
    "Too many sign-ins right now",
  );
  const { full } = await windowOf(ctx, signInCounter(account));
  if (full) fail("TOO_MANY_ATTEMPTS", "Too many attempts, try again later");
  await consume(ctx, signInCounter(account));
}

/** A sign-in with the right password: the account's count starts again. */
export async function clearSignInTries(ctx: MutationCtx, account: string): Promise<void> {
  const { row } = await windowOf(ctx, signInCounter(account));
  if (row !== null) await ctx.db.delete("rateLimits", row._id);
}

/** A review: a customer writes at most RATE_LIMITS.review.perUser a day. */
export async function limitReview(ctx: MutationCtx, customer: Doc<"users">): Promise<void> {
  await consume(
    ctx,
    {
      action: "review",
      scope: "perUser",
      actor: customer._id,
      allowance: RATE_LIMITS.review.perUser,
    },
    "Too many reviews today",
  );
}
