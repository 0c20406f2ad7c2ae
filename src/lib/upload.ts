import { MAX_UPLOAD_BYTES } from "@/lib/constants";

/** The image types the server accepts (it re-checks the bytes). */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const IMAGE_ACCEPT = ACCEPTED_IMAGE_TYPES.join(",");

/** A readable reason the file would be refused, or null when it may be uploaded. */
export function imageFileProblem(file: File): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return "Only images (JPEG, PNG, WebP or GIF) are allowed.";
  }
  if (file.size > MAX_UPLOAD_BYTES) return "The image must be 5 MB or smaller.";
  return null;
}

/**
 * POSTs a file to a Convex upload URL and resolves with its storage id.
 * XMLHttpRequest rather than fetch because only it reports upload progress.
 */
export function uploadFile(
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
        reject(new Error(`Upload failed (${xhr.status}).`));
        return;
      }
      try {
        const { storageId } = JSON.parse(xhr.responseText) as { storageId?: string };
        if (!storageId) throw new Error("no storageId");
        onProgress?.(1);
        resolve(storageId);
      } catch {
        reject(new Error("Upload failed: unexpected server answer."));
      }
    };
    xhr.onerror = () => reject(new Error("Upload failed: network error."));
    xhr.send(file);
  });
}
