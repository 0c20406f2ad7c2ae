import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./_generated/server";
import { publicMutation } from "./functions";
import { createApiDraft, createDraft, spendDraft, sweepExpiredDrafts } from "./model/signUpDrafts";
import { normalizeEmail } from "./model/users";

const newDraft = v.object({ draft: v.string(), expiresAt: v.number() });

/**
 * A sign-up draft for a visitor who solved a proof of work (rules/signUpWork.ts `solveStamp`): send
 * `draft` with files:generateUploadUrl and with the sign-up. See model/signUpDrafts.ts.
 */
export const create = publicMutation({
  args: { stamp: v.string() },
  returns: newDraft,
  handler: (ctx, { stamp }) => createDraft(ctx, stamp),
});

/**
 * POST /api/{users,technicians}/register: a draft of its own for a registration that sent a solved
 * `stamp`; one from the small allowance all stamp-less registrations share otherwise (not used up by
 * an email address with no sign-up attempts left).
 */
export const createForApi = internalMutation({
  args: { email: v.string(), stamp: v.optional(v.string()) },
  returns: newDraft,
  handler: (ctx, { email, stamp }) =>
    stamp === undefined ? createApiDraft(ctx, normalizeEmail(email)) : createDraft(ctx, stamp),
});

/** The sign-up the draft paid for created `userId`. */
export const spend = internalMutation({
  args: { draftId: v.id("signUpDrafts"), userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { draftId, userId }) => {
    await spendDraft(ctx, draftId, userId);
    return null;
  },
});

/** Hourly (crons.ts): deletes drafts past their lifetime, a batch per run. */
export const sweepExpired = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    if (await sweepExpiredDrafts(ctx, Date.now())) {
      await ctx.scheduler.runAfter(0, internal.signUpDrafts.sweepExpired, {});
    }
    return null;
  },
});
