/**
 * Uploaded images (profile photos, citizenship documents, training certificates).
 *
 * A file is checked when its storage id is attached: in actions (sign-up, the HTTP register route) the
 * bytes are read and sniffed before anything is written, and rejected files are deleted; in mutations
 * (profile edits) the stored metadata is checked at once and the bytes right after by a scheduled
 * action, which deletes and detaches a file that is not an image.
 */
import { ConvexError } from "convex/values";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx, MutationCtx, QueryCtx } from "../_generated/server";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The image format the first bytes announce, or null when they are not JPEG, PNG, WebP or GIF. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) {
    return "image/png";
  }
  if (bytes.length >= 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) return "image/gif";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

export function fileNotImage(label: string): ConvexError<{ code: string; message: string }> {
  return new ConvexError({
    code: "FILE_NOT_IMAGE",
    message: `${label} must be an image (JPEG, PNG, WebP or GIF).`,
  });
}

export function fileTooLarge(label: string): ConvexError<{ code: string; message: string }> {
  return new ConvexError({ code: "FILE_TOO_LARGE", message: `${label} must be at most 5 MB.` });
}

function fileNotFound(label: string): ConvexError<{ code: string; message: string }> {
  return new ConvexError({ code: "FILE_NOT_FOUND", message: `${label} was not found; please upload it again.` });
}

/** Checks a blob's size and magic bytes; throws FILE_TOO_LARGE or FILE_NOT_IMAGE. */
export async function assertImageBlob(blob: Blob, label: string): Promise<ImageType> {
  if (blob.size > MAX_IMAGE_BYTES) throw fileTooLarge(label);
  const head = new Uint8Array(await blob.slice(0, 16).arrayBuffer());
  const type = sniffImageType(head);
  if (type === null) throw fileNotImage(label);
  return type;
}

/** Action-side check of a stored file: reads its bytes; deletes it when rejected. */
export async function checkStoredImage(ctx: ActionCtx, storageId: Id<"_storage">, label: string): Promise<void> {
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
export async function checkImageMetadata(ctx: QueryCtx, storageId: Id<"_storage">, label: string): Promise<void> {
  let meta;
  try {
    meta = await ctx.db.system.get("_storage", storageId);
  } catch {
    meta = null; // not a storage id at all
  }
  if (meta === null) throw fileNotFound(label);
  if (meta.size > MAX_IMAGE_BYTES) throw fileTooLarge(label);
  const declared = meta.contentType?.split(";")[0].trim().toLowerCase();
  if (declared !== undefined && declared !== "" && !(IMAGE_TYPES as readonly string[]).includes(declared)) {
    throw fileNotImage(label);
  }
}

/**
 * Records that a file now belongs to a profile. A file already attached elsewhere is refused, so a
 * storage id copied from someone's photo URL cannot become (and later delete) another account's file.
 */
export async function claimFile(ctx: MutationCtx, storageId: Id<"_storage">, label: string): Promise<void> {
  const existing = await ctx.db
    .query("uploads")
    .withIndex("by_storageId", (q) => q.eq("storageId", storageId))
    .first();
  if (existing !== null) {
    throw new ConvexError({ code: "FILE_IN_USE", message: `${label} is already in use; please upload it again.` });
  }
  await ctx.db.insert("uploads", { storageId, checked: true });
}

/** Deletes a profile's file and its attachment record. */
export async function releaseFile(ctx: MutationCtx, storageId: Id<"_storage">): Promise<void> {
  const rows = await ctx.db
    .query("uploads")
    .withIndex("by_storageId", (q) => q.eq("storageId", storageId))
    .take(10);
  for (const row of rows) await ctx.db.delete("uploads", row._id);
  if ((await ctx.db.system.get("_storage", storageId)) !== null) await ctx.storage.delete(storageId);
}

/** Files no profile has attached by this age (an abandoned sign-up's documents) are deleted. */
export const ORPHAN_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the files without an `uploads` row among one page of the files stored before `before`.
 * Returns the cursor of the next page, or null after the last one.
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
  for (const file of files.page) {
    const attached = await ctx.db
      .query("uploads")
      .withIndex("by_storageId", (q) => q.eq("storageId", file._id))
      .first();
    if (attached === null) await ctx.storage.delete(file._id);
  }
  return files.isDone ? null : files.continueCursor;
}

/** The storage id a client sent, as an id, or a FILE_NOT_FOUND error when it cannot be one. */
export function asStorageId(value: unknown, label: string): Id<"_storage"> {
  if (typeof value !== "string" || value.trim() === "" || value.length > 200) throw fileNotFound(label);
  return value.trim() as Id<"_storage">;
}

export async function urlOf(ctx: QueryCtx, storageId: Id<"_storage"> | undefined): Promise<string | null> {
  return storageId === undefined ? null : await ctx.storage.getUrl(storageId);
}
