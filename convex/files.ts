import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalAction, internalMutation, internalQuery } from "./_generated/server";
import { publicMutation } from "./functions";
import {
  assertImageBlob,
  assertUploadRoom,
  discardUnattachedFile,
  grantOwner,
  issueUploadUrl,
  openUploadGrant,
  ownUpload,
  recordStoredFile,
  recordUpload,
  releaseFile,
  sweepExpiredGrants,
  sweepOrphanedFiles,
} from "./model/files";
import { notify } from "./model/notifications";
import { limitUpload } from "./model/rateLimit";
import { requireDraft } from "./model/signUpDrafts";
import { PENDING_UPLOADS } from "./rules/limits";

/**
 * An upload URL: POST the file to it to get `{storageId}`. The file belongs to the caller: a signed-in
 * user, or a visitor's sign-up draft (professionals upload their documents before their account
 * exists); only they may attach it. Files are checked when attached, and files never attached are
 * deleted after PENDING_UPLOADS.lifetimeMs (sweepOrphans).
 */
export const generateUploadUrl = publicMutation({
  args: { draft: v.optional(v.string()) },
  returns: v.string(),
  handler: async (ctx, args) => {
    if (ctx.viewer !== null) {
      await limitUpload(ctx, { user: ctx.viewer });
      return await issueUploadUrl(ctx, { userId: ctx.viewer._id });
    }
    // a visitor is known by their sign-up draft (model/signUpDrafts.ts); a signed-in user's is ignored
    const draft = await requireDraft(ctx, args.draft);
    await limitUpload(ctx, { draft });
    return await issueUploadUrl(ctx, { draftId: draft._id });
  },
});

/**
 * POST /api/uploads, before the body is read: may the URL with this token still store a file? Throws
 * UPLOAD_QUOTA_FULL when a file of `bytes` (the declared length) does not fit its owner's quota.
 */
export const uploadUrlOpen = internalQuery({
  args: { token: v.string(), bytes: v.number() },
  returns: v.boolean(),
  handler: async (ctx, { token, bytes }) => {
    const grant = await openUploadGrant(ctx, token);
    if (grant === null) return false;
    await assertUploadRoom(ctx, grantOwner(grant), bytes);
    return true;
  },
});

/**
 * POST /api/uploads: the file stored for the URL's owner; false (delete the file) when the URL was used
 * meanwhile; throws (delete the file) when it does not fit the owner's quota.
 */
export const recordUrlUpload = internalMutation({
  args: { token: v.string(), storageId: v.id("_storage") },
  returns: v.boolean(),
  handler: async (ctx, { token, storageId }) => await recordUpload(ctx, token, storageId),
});

/** Files an HTTP registration stored from its form, as uploads of the registration's sign-up draft. */
export const recordDraftFiles = internalMutation({
  args: { storageIds: v.array(v.id("_storage")), draft: v.string() },
  returns: v.null(),
  handler: async (ctx, { storageIds, draft }) => {
    const { _id: draftId } = await requireDraft(ctx, draft);
    for (const storageId of storageIds) await recordStoredFile(ctx, storageId, { draftId });
    return null;
  },
});

/** Files the deployment stored itself (the demo accounts'), which only a sign-up without a draft attaches. */
export const recordDeploymentFiles = internalMutation({
  args: { storageIds: v.array(v.id("_storage")) },
  returns: v.null(),
  handler: async (ctx, { storageIds }) => {
    for (const storageId of storageIds)
      await recordStoredFile(ctx, storageId, { deployment: true });
    return null;
  },
});

/** Deletes the files of a failed HTTP registration, except any its sign-up attached. */
export const discardUnattached = internalMutation({
  args: { storageIds: v.array(v.id("_storage")) },
  returns: v.null(),
  handler: async (ctx, { storageIds }) => {
    for (const storageId of storageIds) await discardUnattachedFile(ctx, storageId);
    return null;
  },
});

/**
 * Sign-up's check, before the files' bytes are read (reading deletes a file that is not an image):
 * every file is an upload of the sign-up's draft.
 */
export const assertDraftUploads = internalQuery({
  args: {
    draftId: v.id("signUpDrafts"),
    files: v.array(v.object({ id: v.string(), label: v.string() })),
  },
  returns: v.null(),
  handler: async (ctx, { draftId, files }) => {
    for (const { id, label } of files) await ownUpload(ctx, id, { draftId }, label);
    return null;
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
 * Every 20 minutes (crons.ts): deletes files stored over PENDING_UPLOADS.lifetimeMs ago that no
 * profile attached, a page per run; the
 * run reschedules itself for the next page with the same cut-off. The first run also starts clearing
 * upload URLs that expired unused.
 */
export const sweepOrphans = internalMutation({
  args: { before: v.optional(v.number()), cursor: v.optional(v.string()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const before = args.before ?? Date.now() - PENDING_UPLOADS.lifetimeMs;
    const next = await sweepOrphanedFiles(ctx, before, args.cursor ?? null);
    if (next !== null)
      await ctx.scheduler.runAfter(0, internal.files.sweepOrphans, { before, cursor: next });
    if (args.cursor === undefined) await ctx.scheduler.runAfter(0, internal.files.sweepGrants, {});
    return null;
  },
});

/** Deletes upload URLs that expired unused, a batch per run. */
export const sweepGrants = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    if (await sweepExpiredGrants(ctx, Date.now()))
      await ctx.scheduler.runAfter(0, internal.files.sweepGrants, {});
    return null;
  },
});
