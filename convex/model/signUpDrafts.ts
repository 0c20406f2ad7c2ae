/**
 * Sign-up drafts: what a visitor is, to the limits, while they sign up. Mutations see no IP address,
 * so a visitor gets an identity of their own by paying for it: `create` takes a solved proof of work
 * (rules/signUpWork.ts) and returns a secret token. The visitor sends the token with each upload URL
 * request (files:generateUploadUrl `{draft}`) and with the sign-up (auth:signIn params `draft`); those
 * are counted against the draft (model/rateLimit.ts), which makes a flood cost the flooder CPU per
 * draft instead of using up one allowance all visitors share.
 *
 * API for other modules:
 * - `requireDraft(ctx, token)`: the live draft doc, or DRAFT_NOT_FOUND (unknown, expired or spent).
 * - `spendDraft(ctx, draftId, userId)`: its sign-up created `userId`; the draft can do nothing more.
 * - `createDraft(ctx, stamp)`, `createApiDraft(ctx, email)`: the public mutation's and the HTTP register route's.
 * A draft lives DRAFT_LIMITS.lifetimeMs, as long as never-attached uploads are kept.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DRAFT_LIMITS, RATE_LIMITS } from "../rules/limits";
import { SIGN_UP_WORK, stampIssuedAt, stampWork } from "../rules/signUpWork";
import { assertEmailMayTry, consume } from "./rateLimit";
import { fail } from "./errors";

const TOKEN = /^[0-9a-f]{32}$/;
const SWEEP_BATCH = 500;

export type NewDraft = { draft: string; expiresAt: number };

function newToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}

async function insertDraft(ctx: MutationCtx, stamp: string | undefined): Promise<NewDraft> {
  const draft = newToken();
  const expiresAt = Date.now() + DRAFT_LIMITS.lifetimeMs;
  await ctx.db.insert("signUpDrafts", {
    token: draft,
    ...(stamp ? { stamp } : {}),
    expiresAt,
    uploads: 0,
    signUps: 0,
  });
  return { draft, expiresAt };
}

/**
 * A draft paid for with `stamp`. A stamp issued too far from the server's clock is refused with
 * STAMP_EXPIRED and `serverTime`, so a client with a wrong clock can solve one for the server's time.
 */
export async function createDraft(ctx: MutationCtx, stamp: string): Promise<NewDraft> {
  const issuedAt = stampIssuedAt(stamp);
  if (issuedAt === null) fail("STAMP_INVALID", "The sign-up check failed; please try again.");
  const now = Date.now();
  if (Math.abs(now - issuedAt) > SIGN_UP_WORK.maxAgeMs) {
    fail("STAMP_EXPIRED", "The sign-up check is out of date; please try again.", {
      serverTime: now,
    });
  }
  const used = await ctx.db
    .query("signUpDrafts")
    .withIndex("by_stamp", (q) => q.eq("stamp", stamp))
    .first();
  if (used !== null) fail("STAMP_USED", "The sign-up check was already used; please try again.");
  if ((await stampWork(stamp)) < SIGN_UP_WORK.bits) {
    fail("STAMP_INVALID", "The sign-up check failed; please try again.");
  }
  await consume(
    ctx,
    { action: "draft", scope: "everyone", actor: "", allowance: RATE_LIMITS.draft.everyone },
    "Too many sign-ups right now",
  );
  return await insertDraft(ctx, stamp);
}

/**
 * A draft for an HTTP registration that brought no stamp: these share one small allowance, which an
 * email address (normalised) with no sign-up attempts left does not use up.
 */
export async function createApiDraft(ctx: MutationCtx, email: string): Promise<NewDraft> {
  await assertEmailMayTry(ctx, email);
  await consume(
    ctx,
    { action: "apiDraft", scope: "everyone", actor: "", allowance: RATE_LIMITS.apiDraft.everyone },
    "Too many registrations right now",
  );
  return await insertDraft(ctx, undefined);
}

/** The draft behind `token` while it may still be used, else null. */
export async function findDraft(ctx: QueryCtx, token: string): Promise<Doc<"signUpDrafts"> | null> {
  if (!TOKEN.test(token)) return null;
  const draft = await ctx.db
    .query("signUpDrafts")
    .withIndex("by_token", (q) => q.eq("token", token))
    .unique();
  if (draft === null || draft.expiresAt <= Date.now() || draft.userId !== undefined) return null;
  return draft;
}

export async function requireDraft(
  ctx: QueryCtx,
  token: string | undefined,
): Promise<Doc<"signUpDrafts">> {
  const draft = token === undefined ? null : await findDraft(ctx, token);
  if (draft === null) {
    fail("DRAFT_NOT_FOUND", "This sign-up has expired or was already used; please try again.");
  }
  return draft;
}

/** The draft's sign-up created `userId`: it can neither upload nor sign up again. */
export async function spendDraft(
  ctx: MutationCtx,
  draftId: Id<"signUpDrafts">,
  userId: Id<"users">,
): Promise<void> {
  await ctx.db.patch("signUpDrafts", draftId, { userId });
}

/** Deletes one batch of drafts past their lifetime; true when more remain. */
export async function sweepExpiredDrafts(ctx: MutationCtx, now: number): Promise<boolean> {
  const expired = await ctx.db
    .query("signUpDrafts")
    .withIndex("by_expiresAt", (q) => q.lt("expiresAt", now))
    .take(SWEEP_BATCH);
  for (const draft of expired) await ctx.db.delete("signUpDrafts", draft._id);
  return expired.length === SWEEP_BATCH;
}
