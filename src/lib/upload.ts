import { ConvexError } from "convex/values";
import * as z from "zod/mini";
import { MAX_UPLOAD_BYTES } from "@/lib/constants";
import { m } from "@/i18n/paraglide/messages";

/** The image types the server accepts (it re-checks the bytes). */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const IMAGE_ACCEPT = ACCEPTED_IMAGE_TYPES.join(",");
/** What an image field takes, in the reader's language. */
export const imageHint = () => m.image_hint();

/** Photos are scaled down before upload (GIFs, possibly animated, are sent as they are). */
const SHRINKABLE_TYPES = ["image/jpeg", "image/png", "image/webp"];
/** A 50-megapixel phone photo is ~25 MB; anything bigger is not a photo of a document. */
const MAX_PICKED_BYTES = 25 * 1024 * 1024;
/** Long side and size of an uploaded photo: a citizenship card stays legible, mobile data is spared. */
const SHRINK_TO = { maxWidthOrHeight: 2048, maxSizeMB: 1 };

/** A readable reason the file would be refused, or null when it may be uploaded. */
export function imageFileProblem(file: File): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return "Only images (JPEG, PNG, WebP or GIF) are allowed.";
  }
  if (SHRINKABLE_TYPES.includes(file.type)) {
    return file.size > MAX_PICKED_BYTES ? "The image must be 25 MB or smaller." : null;
  }
  return file.size > MAX_UPLOAD_BYTES ? "The image must be 5 MB or smaller." : null;
}

/** A form field holding an optional image File, checked with imageFileProblem. */
export const imageFileSchema = z
  .custom<File | null>((v) => v === null || v instanceof File)
  .check(
    z.superRefine((file, ctx) => {
      const problem = file && imageFileProblem(file);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  );

/**
 * The photo to upload: scaled to SHRINK_TO in the page (the library's web worker would load its
 * script from a CDN), or the original when that is not smaller.
 */
export async function shrinkImage(file: File): Promise<File> {
  if (!SHRINKABLE_TYPES.includes(file.type)) return file;
  const { default: compress } = await import("browser-image-compression");
  const shrunk = await compress(file, { ...SHRINK_TO, useWebWorker: false });
  return shrunk.size < file.size ? shrunk : file;
}

/** Shrinks an image, then uploads it; resolves with its storage id. */
export async function uploadImage(
  uploadUrl: string,
  file: File,
  onProgress?: (fraction: number) => void,
) {
  return await uploadFile(uploadUrl, await shrinkImage(file), onProgress);
}

/**
 * A refused upload's JSON answer (`{code, message}`) as the server refusal it is, which errorMessage
 * words in the reader's language; null when the answer is not one.
 */
function refusal(responseText: string): ConvexError<{ code: string; message: string }> | null {
  try {
    const { code, message } = JSON.parse(responseText) as { code?: unknown; message?: unknown };
    return typeof code === "string" && typeof message === "string"
      ? new ConvexError({ code, message })
      : null;
  } catch {
    return null;
  }
}

/**
 * POSTs a file to an upload URL (files:generateUploadUrl: the file becomes the caller's) and resolves
 * with its storage id. XMLHttpRequest rather than fetch because only it reports upload progress.
 */
function uploadFile(
  uploadUrl: string,
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", uploadUrl);
    xhr.setRequestHeader("Content-Type", file.type);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(refusal(xhr.responseText) ?? new Error(`Upload failed (${xhr.status}).`));
        return;
      }
      try {
        const { storageId } = JSON.parse(xhr.responseText) as { storageId?: string };
        if (!storageId) throw new Error("no storageId");
        onProgress?.(1);
        resolve(storageId);
      } catch {
        reject(new Error(m.upload_failed_answer()));
      }
    };
    xhr.onerror = () => reject(new Error(m.upload_failed_network()));
    xhr.send(file);
  });
}
