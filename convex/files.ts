import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalAction, internalMutation } from "./_generated/server";
import { publicMutation } from "./functions";
import { ORPHAN_AFTER_MS, assertImageBlob, releaseFile, sweepOrphanedFiles } from "./model/files";
import { notify } from "./model/notifications";
import { limitUpload } from "./model/rateLimit";
import { requireDraft } from "./model/signUpDrafts";

/**
 * An upload URL: POST the file to it to get `{storageId}`. Open to visitors because professionals
 * upload their documents before their account exists; files are checked when attached, and files
 * never attached are deleted after a day (sweepOrphans).
 */
export const generateUploadUrl = publicMutation({
  args: { draft: v.optional(v.string()) },
  returns: v.string(),
  handler: async (ctx, args) => {
    // a visitor is known by their sign-up draft (model/signUpDrafts.ts); a signed-in user's is ignored
    await limitUpload(ctx, ctx.viewer !== null ? { user: ctx.viewer } : { draft: await requireDraft(ctx, args.draft) });
    return await ctx.storage.generateUploadUrl();
  },
});

/** Reads the bytes of a photo attached by a mutation; a file that is not an image is deleted and detached. */
export const verifyPhoto = internalAction({
  args: { userId: v.id("users"), storageId: v.id("_storage") },
  returns: v.null(),
  handler: async (ctx, { userId, storageId }) => {
    const blob = await ctx.storage.get(storageId);
    if (blob === null) return null;
    try {
      await assertImageBlob(blob, "Profile photo");
    } catch {
      await ctx.storage.delete(storageId);
      await ctx.runMutation(internal.files.detachPhoto, { userId, storageId });
    }
    return null;
  },
});

export const detachPhoto = internalMutation({
  args: { userId: v.id("users"), storageId: v.id("_storage") },
  returns: v.null(),
  handler: async (ctx, { userId, storageId }) => {
    const user = await ctx.db.get("users", userId);
    await releaseFile(ctx, storageId);
    if (user === null || user.photo !== storageId) return null;
    await ctx.db.patch("users", userId, { photo: undefined });
    await notify(ctx, {
      userId,
      kind: "account.photo_rejected",
      title: "Profile photo removed",
      body: "The photo you uploaded is not a JPEG, PNG, WebP or GIF image. Please upload another one.",
    });
    return null;
  },
});

/**
 * Hourly (crons.ts): deletes files stored over a day ago that no profile attached, a page per run; the
 * run reschedules itself for the next page with the same cut-off.
 */
export const sweepOrphans = internalMutation({
  args: { before: v.optional(v.number()), cursor: v.optional(v.string()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const before = args.before ?? Date.now() - ORPHAN_AFTER_MS;
    const next = await sweepOrphanedFiles(ctx, before, args.cursor ?? null);
    if (next !== null) await ctx.scheduler.runAfter(0, internal.files.sweepOrphans, { before, cursor: next });
    return null;
  },
});
