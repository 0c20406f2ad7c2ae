/**
 * Uploaded images (profile photos, citizenship documents, training certificates).
 *
 * An upload belongs to whoever asked for its URL: a signed-in user, or a visitor's sign-up draft
 * (model/signUpDrafts.ts). Convex's own upload URLs cannot tell who sent a file, so the app's URL is
 * an HTTP action (httpRoutes/uploads.ts) that stores the file for the owner of the URL's grant; only
 * that owner may attach the file to a profile, which makes it that user's for good.
 *
 * A file is checked when it is uploaded and again when its storage id is attached: in actions
 * (sign-up, the HTTP register route) its image header is read and decoded (model/imageHeader.ts)
 * before anything is written, and rejected files are deleted; in mutations (profile edits) the stored
 * metadata is checked at once and the bytes right after by a scheduled action, which deletes and
 * detaches a file that is not an image.
 *
 * Until attached, files count against a quota per owner and for everyone (rules/limits.ts
 * PENDING_UPLOADS), counted from their grants' recorded sizes; the ones never attached are deleted
 * after PENDING_UPLOADS.lifetimeMs.
 */
import { ConvexError } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { ActionCtx, MutationCtx, QueryCtx } from "../_generated/server";
import { IMAGE_LIMITS, PENDING_UPLOADS } from "../rules/limits";
import { fail, refusal } from "./errors";
import { siteUrl } from "./deployment";
import { HEADER_BYTES, decodeImageHeader, type ImageType } from "./imageHeader";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export type { ImageType };

export function fileNotImage(label: string): ConvexError<{ code: string; message: string }> {
  return refusal("FILE_NOT_IMAGE", `${label} must be an image (JPEG, PNG, WebP or GIF).`);
}

export function fileTooLarge(label: string): ConvexError<{ code: string; message: string }> {
  return refusal("FILE_TOO_LARGE", `${label} must be at most 5 MB.`);
}

function fileNotFound(label: string): ConvexError<{ code: string; message: string }> {
  return refusal("FILE_NOT_FOUND", `${label} was not found; please upload it again.`);
}

/** A type as declared (a Content-Type, a stored file's type): lower case, without parameters. */
const declaredType = (type: string | undefined) => {
  const bare = type?.split(";")[0].trim().toLowerCase();
  return bare === "image/jpg" ? "image/jpeg" : bare;
};

/**
 * Checks a blob's size and its image header (model/imageHeader.ts): a JPEG, PNG, WebP or GIF whose
 * header decodes, with sides within IMAGE_LIMITS, of the type the blob declares if it declares one.
 * Throws FILE_TOO_LARGE or FILE_NOT_IMAGE.
 */
export async function assertImageBlob(blob: Blob, label: string): Promise<ImageType> {
  if (blob.size > MAX_IMAGE_BYTES) throw fileTooLarge(label);
  const head = new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer());
  const header = decodeImageHeader(head);
  if (header === null) throw fileNotImage(label);
  const { type, width, height } = header;
  const declared = declaredType(blob.type);
  if (declared !== undefined && declared !== "" && declared !== type) throw fileNotImage(label);
  const { maxSide, maxPixels } = IMAGE_LIMITS;
  if (width < 1 || height < 1 || width > maxSide || height > maxSide || width * height > maxPixels)
    fail(
      "FILE_NOT_IMAGE",
      `${label} must be at most ${maxSide.toLocaleString("en")} pixels a side and ` +
        `${maxPixels / 1_000_000} megapixels.`,
    );
  return type;
}

/** Action-side check of a stored file: reads its bytes; deletes it when rejected. */
export async function checkStoredImage(
  ctx: ActionCtx,
  storageId: Id<"_storage">,
  label: string,
): Promise<void> {
  let blob: Blob | null;
  try {
    blob = await ctx.storage.get(storageId);
  } catch {
    throw fileNotFound(label); // not a storage id at all
  }
  if (blob === null) throw fileNotFound(label);
  try {
    await assertImageBlob(blob, label);
  } catch (error) {
    await ctx.storage.delete(storageId);
    throw error;
  }
}

/**
 * Mutation-side check from the stored metadata (size and the content type the uploader declared).
 * It cannot delete a rejected file: the error rolls the mutation's writes back. The bytes themselves
 * are checked by an action (see verifyPhoto in files.ts), which does delete.
 */
async function checkImageMetadata(
  ctx: QueryCtx,
  storageId: Id<"_storage">,
  label: string,
): Promise<void> {
  let meta;
  try {
    meta = await ctx.db.system.get("_storage", storageId);
  } catch {
    meta = null; // not a storage id at all
  }
  if (meta === null) throw fileNotFound(label);
  if (meta.size > MAX_IMAGE_BYTES) throw fileTooLarge(label);
  const declared = declaredType(meta.contentType);
  if (
    declared !== undefined &&
    declared !== "" &&
    !(IMAGE_TYPES as readonly string[]).includes(declared)
  ) {
    throw fileNotImage(label);
  }
}

/**
 * Who an upload belongs to until it is attached: a user, a visitor's sign-up draft, or the deployment
 * itself (files its own code stored, the demo accounts'; a grant row with neither user nor draft).
 */
export type UploadOwner =
  { userId: Id<"users"> } | { draftId: Id<"signUpDrafts"> } | { deployment: true };

/** How long an upload URL may be used, as Convex's own. */
export const UPLOAD_URL_LIFETIME_MS = 60 * 60 * 1000;

function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}

function ownerFields(owner: UploadOwner): { userId?: Id<"users">; draftId?: Id<"signUpDrafts"> } {
  return "deployment" in owner ? {} : owner;
}

/** A new upload URL whose file will belong to `owner`; it stores one file. */
export async function issueUploadUrl(
  ctx: MutationCtx,
  owner: { userId: Id<"users"> } | { draftId: Id<"signUpDrafts"> },
): Promise<string> {
  const token = randomToken();
  await ctx.db.insert("uploadGrants", {
    token,
    ...owner,
    expiresAt: Date.now() + UPLOAD_URL_LIFETIME_MS,
  });
  return `${siteUrl()}/api/uploads?grant=${token}`;
}

/** The grant of an upload URL that may still store its file, or null. */
export async function openUploadGrant(
  ctx: QueryCtx,
  token: string,
): Promise<Doc<"uploadGrants"> | null> {
  if (token === "") return null;
  const grant = await ctx.db
    .query("uploadGrants")
    .withIndex("by_token", (q) => q.eq("token", token))
    .unique();
  return grant === null || grant.storageId !== undefined || grant.expiresAt <= Date.now()
    ? null
    : grant;
}

function quotaFull(message: string): ConvexError<{ code: string; message: string }> {
  return refusal("UPLOAD_QUOTA_FULL", message);
}

const totalBytes = (grants: Doc<"uploadGrants">[]) =>
  grants.reduce((sum, grant) => sum + (grant.bytes ?? 0), 0);

/**
 * Throws UPLOAD_QUOTA_FULL unless one more file of `bytes` fits beside the unattached uploads of
 * `owner` and of everyone (PENDING_UPLOADS). Reads at most the quotas' file counts of grants.
 */
export async function assertUploadRoom(
  ctx: QueryCtx,
  owner: UploadOwner,
  bytes: number,
): Promise<void> {
  const { perUploader, everyone } = PENDING_UPLOADS;
  if (!("deployment" in owner)) {
    const held = await (
      "userId" in owner
        ? ctx.db
            .query("uploadGrants")
            .withIndex("by_userId_and_bytes", (q) => q.eq("userId", owner.userId).gte("bytes", 0))
        : ctx.db
            .query("uploadGrants")
            .withIndex("by_draftId_and_bytes", (q) =>
              q.eq("draftId", owner.draftId).gte("bytes", 0),
            )
    ).take(perUploader.files);
    if (held.length >= perUploader.files || totalBytes(held) + bytes > perUploader.bytes) {
      throw quotaFull(
        `Files you upload may wait at most ${PENDING_UPLOADS.lifetimeMs / 3_600_000} hours to be ` +
          `used, ${perUploader.files} files or ${perUploader.bytes / 1024 / 1024} MB at a time; ` +
          "use them or try again later.",
      );
    }
  }
  const all = await ctx.db
    .query("uploadGrants")
    .withIndex("by_bytes", (q) => q.gte("bytes", 0))
    .take(everyone.files);
  if (all.length >= everyone.files || totalBytes(all) + bytes > everyone.bytes)
    throw quotaFull("Too many uploaded files are waiting to be used; please try again later.");
}

/** Whose an upload URL's file is. */
export function grantOwner(grant: Doc<"uploadGrants">): UploadOwner {
  if (grant.userId !== undefined) return { userId: grant.userId };
  if (grant.draftId !== undefined) return { draftId: grant.draftId };
  return { deployment: true };
}

/** The stored size of a file (its metadata, not what the uploader declared). */
async function storedBytes(ctx: QueryCtx, storageId: Id<"_storage">): Promise<number> {
  return (await ctx.db.system.get("_storage", storageId))?.size ?? 0;
}

/**
 * Records the file sent to an upload URL as its owner's; false when the URL was used or has expired.
 * Throws UPLOAD_QUOTA_FULL when the file does not fit the owner's quota (assertUploadRoom).
 */
export async function recordUpload(
  ctx: MutationCtx,
  token: string,
  storageId: Id<"_storage">,
): Promise<boolean> {
  const grant = await openUploadGrant(ctx, token);
  if (grant === null) return false;
  const bytes = await storedBytes(ctx, storageId);
  await assertUploadRoom(ctx, grantOwner(grant), bytes);
  await ctx.db.patch("uploadGrants", grant._id, { storageId, bytes });
  return true;
}

/**
 * Records a file the server stored itself (an HTTP registration's form files, demo data) as `owner`'s
 * upload; a draft's count against its quota as uploads to a URL do.
 */
export async function recordStoredFile(
  ctx: MutationCtx,
  storageId: Id<"_storage">,
  owner: UploadOwner,
): Promise<void> {
  const bytes = await storedBytes(ctx, storageId);
  if (!("deployment" in owner)) await assertUploadRoom(ctx, owner, bytes);
  await ctx.db.insert("uploadGrants", {
    ...ownerFields(owner),
    expiresAt: Date.now(),
    storageId,
    bytes,
  });
}

function fileNotYours(label: string): ConvexError<{ code: string; message: string }> {
  return refusal("FILE_NOT_YOURS", `${label} is not one of your uploads; please upload it again.`);
}

function sameOwner(grant: Doc<"uploadGrants">, owner: UploadOwner): boolean {
  const { userId, draftId } = ownerFields(owner);
  return grant.userId === userId && grant.draftId === draftId;
}

/**
 * The grant under which `owner` uploaded a file that is not attached yet. Anything else is refused
 * before the file is read or changed: FILE_NOT_YOURS (someone else's, or no upload at all),
 * FILE_IN_USE (already attached to the owner's own profile), FILE_NOT_FOUND (not a storage id).
 */
export async function ownUpload(
  ctx: QueryCtx,
  rawId: string,
  owner: UploadOwner,
  label: string,
): Promise<Doc<"uploadGrants">> {
  const storageId = ctx.db.system.normalizeId("_storage", rawId);
  if (storageId === null) throw fileNotFound(label);
  const grant = await ctx.db
    .query("uploadGrants")
    .withIndex("by_storageId_and_expiresAt", (q) => q.eq("storageId", storageId))
    .first();
  if (grant !== null && sameOwner(grant, owner)) return grant;
  if (grant === null && "userId" in owner) {
    const attached = await ctx.db
      .query("uploads")
      .withIndex("by_storageId", (q) => q.eq("storageId", storageId))
      .first();
    if (attached !== null && attached.userId === owner.userId) {
      fail("FILE_IN_USE", `${label} is already in use; please upload it again.`);
    }
  }
  throw fileNotYours(label);
}

/**
 * Attaches a file `owner` uploaded to the profile of `userId` (the owner, or the account its sign-up
 * draft creates): checked, then recorded as that user's. Refused attaches change nothing.
 */
export async function attachOwnFile(
  ctx: MutationCtx,
  storageId: Id<"_storage">,
  label: string,
  owner: UploadOwner,
  userId: Id<"users">,
): Promise<void> {
  const grant = await ownUpload(ctx, storageId, owner, label);
  await checkImageMetadata(ctx, storageId, label);
  await ctx.db.delete("uploadGrants", grant._id);
  await ctx.db.insert("uploads", { storageId, checked: true, userId });
}

/** Deletes a profile's file and its attachment record. */
export async function releaseFile(ctx: MutationCtx, storageId: Id<"_storage">): Promise<void> {
  const rows = await ctx.db
    .query("uploads")
    .withIndex("by_storageId", (q) => q.eq("storageId", storageId))
    .take(10);
  for (const row of rows) await ctx.db.delete("uploads", row._id);
  if ((await ctx.db.system.get("_storage", storageId)) !== null)
    await ctx.storage.delete(storageId);
}

/** Deletes a file and its grants unless a profile has attached it; true when it was deleted. */
export async function discardUnattachedFile(
  ctx: MutationCtx,
  storageId: Id<"_storage">,
): Promise<boolean> {
  const attached = await ctx.db
    .query("uploads")
    .withIndex("by_storageId", (q) => q.eq("storageId", storageId))
    .first();
  if (attached !== null) return false;
  const grants = await ctx.db
    .query("uploadGrants")
    .withIndex("by_storageId_and_expiresAt", (q) => q.eq("storageId", storageId))
    .take(10);
  for (const grant of grants) await ctx.db.delete("uploadGrants", grant._id);
  if ((await ctx.db.system.get("_storage", storageId)) !== null)
    await ctx.storage.delete(storageId);
  return true;
}

/**
 * Deletes the files no profile attached (and their grants) among one page of the files stored before
 * `before`. Returns the cursor of the next page, or null after the last one.
 */
export async function sweepOrphanedFiles(
  ctx: MutationCtx,
  before: number,
  cursor: string | null,
  pageSize = 100,
): Promise<string | null> {
  const files = await ctx.db.system
    .query("_storage")
    .withIndex("by_creation_time", (q) => q.lt("_creationTime", before))
    .paginate({ cursor, numItems: pageSize });
  for (const file of files.page) await discardUnattachedFile(ctx, file._id);
  return files.isDone ? null : files.continueCursor;
}

/** Deletes a batch of upload URLs that expired unused; true when more remain. */
export async function sweepExpiredGrants(
  ctx: MutationCtx,
  now: number,
  batch = 500,
): Promise<boolean> {
  const expired = await ctx.db
    .query("uploadGrants")
    .withIndex("by_storageId_and_expiresAt", (q) =>
      q.eq("storageId", undefined).lt("expiresAt", now),
    )
    .take(batch);
  for (const grant of expired) await ctx.db.delete("uploadGrants", grant._id);
  return expired.length === batch;
}

/** The storage id a client sent, as an id, or a FILE_NOT_FOUND error when it cannot be one. */
export function asStorageId(value: unknown, label: string): Id<"_storage"> {
  if (typeof value !== "string" || value.trim() === "" || value.length > 200)
    throw fileNotFound(label);
  return value.trim() as Id<"_storage">;
}

/** A user's picture: the uploaded profile photo, else the image an auth provider gave (none does today). */
export async function photoUrlOf(ctx: QueryCtx, user: Doc<"users"> | null): Promise<string | null> {
  if (user?.photo) return await ctx.storage.getUrl(user.photo);
  return user?.image ?? null;
}

export async function urlOf(
  ctx: QueryCtx,
  storageId: Id<"_storage"> | undefined,
): Promise<string | null> {
  return storageId === undefined ? null : await ctx.storage.getUrl(storageId);
}
