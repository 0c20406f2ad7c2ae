// File storage endpoints: POST <url>/api/storage/upload?token=… → {storageId};
// GET <url>/api/storage/<storageId>?token=… → the bytes, served so that they can never run as a page
// of this origin (see `fileHeaders`). Both URLs carry an HMAC of the deployment's storage secret (storage
// ids were once sequential; now they are random Convex ids, and the signature stays as a second lock).
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sameSecret } from "./auth-keys.ts";
import type { Engine } from "./engine/engine.ts";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { BodyTooLarge, CORS_HEADERS, sendJson } from "./http-util.ts";
import { formatMediaType, parseMediaType } from "./media-type.ts";

export const DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
const UPLOAD_URL_LIFETIME_MS = 60 * 60 * 1000;

export interface StorageDeps {
  engine: Engine;
  secret: string;
  baseUrl(): string;
  maxUploadBytes: number;
  durable(): Promise<void>;
  /** Receives an upload's body on disk (Persistence.stageUpload): throws BodyTooLarge past `maxBytes`. */
  stageUpload(
    body: AsyncIterable<Uint8Array>,
    maxBytes: number,
    type: string,
  ): Promise<{ blob: Blob; discard(): void }>;
}

const sign = (secret: string, message: string) =>
  createHmac("sha256", secret).update(message).digest("base64url");

/** Upload tokens are signed, so URLs handed out before a restart stay valid until they expire. */
export function createUploadUrl(deps: Pick<StorageDeps, "secret" | "baseUrl">): string {
  const expiry = String(Date.now() + UPLOAD_URL_LIFETIME_MS);
  return `${deps.baseUrl()}/api/storage/upload?token=${expiry}.${sign(deps.secret, `upload:${expiry}`)}`;
}

function validUploadToken(secret: string, token: string | null): boolean {
  if (!token) return false;
  const [expiry, signature = ""] = token.split(".");
  if (!/^\d+$/.test(expiry) || Number(expiry) < Date.now()) return false;
  return sameSecret(sign(secret, `upload:${expiry}`), signature);
}

/** A file's URL is stable (query results containing it stay equal) and only works with its token. */
export function createFileUrl(
  deps: Pick<StorageDeps, "secret" | "baseUrl">,
  storageId: string,
): string {
  return `${deps.baseUrl()}/api/storage/${encodeURIComponent(storageId)}?token=${sign(deps.secret, `file:${storageId}`)}`;
}

/** Served with their own type and shown in the page (`<img>`, opened in a tab). */
const INLINE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]);
/** Served with their own type, as downloads: a PDF shown on this origin could run its scripts. */
const DOWNLOAD_TYPES = new Set(["application/pdf"]);

/** Every file answer: no sniffing, and nothing in it may run or load anything even if opened as a page. */
const SAFE_FILE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
};

/**
 * The headers a file is served with. Whatever type the uploader (or `ctx.storage.store`'s Blob) declared
 * is kept on the file, but only an allowed image is served inline, and as exactly its `type/subtype`.
 */
function fileHeaders(declared: string | undefined): Record<string, string> {
  const essence = declared ? parseMediaType(declared)?.essence : undefined;
  if (essence && INLINE_TYPES.has(essence))
    return { "Content-Type": essence, ...SAFE_FILE_HEADERS };
  return {
    "Content-Type": essence && DOWNLOAD_TYPES.has(essence) ? essence : "application/octet-stream",
    "Content-Disposition": "attachment",
    ...SAFE_FILE_HEADERS,
  };
}

/**
 * The upload's Content-Type, as Convex reads it: absent → none; exactly one well-formed media type →
 * stored (normalised); anything else → refused with 400 BadHeader.
 */
function uploadContentType(req: IncomingMessage): { type: string } | { error: string } {
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() === "content-type") values.push(req.rawHeaders[i + 1]);
  }
  if (values.length === 0 || (values.length === 1 && values[0].trim() === "")) return { type: "" };
  const parsed = values.length === 1 ? parseMediaType(values[0]) : null;
  if (!parsed)
    return {
      error: values.length === 1 ? "not a single media type" : "more than one Content-Type header",
    };
  return { type: formatMediaType(parsed) };
}

const tooLarge = (maxBytes: number) => ({
  code: "FileTooLarge",
  message: `File is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB upload limit`,
});

export async function handleStorage(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: StorageDeps,
) {
  if (url.pathname === "/api/storage/upload") {
    if (req.method !== "POST")
      return sendJson(res, 405, { code: "MethodNotAllowed", message: "Upload with POST" });
    if (!validUploadToken(deps.secret, url.searchParams.get("token"))) {
      return sendJson(res, 401, {
        code: "InvalidUploadUrl",
        message: "The upload URL is invalid or has expired",
      });
    }
    const contentType = uploadContentType(req);
    if ("error" in contentType) {
      res.setHeader("Connection", "close");
      return sendJson(res, 400, {
        code: "BadHeader",
        message: `Bad header for content-type: ${contentType.error}`,
      });
    }
    if (Number(req.headers["content-length"] ?? "0") > deps.maxUploadBytes) {
      res.setHeader("Connection", "close");
      return sendJson(res, 413, tooLarge(deps.maxUploadBytes));
    }
    let staged: { blob: Blob; discard(): void };
    try {
      staged = await deps.stageUpload(req, deps.maxUploadBytes, contentType.type);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        res.setHeader("Connection", "close");
        return sendJson(res, 413, tooLarge(deps.maxUploadBytes));
      }
      throw error;
    }
    try {
      // The staged file becomes the stored one (Persistence.stageBlob): nothing is read whole.
      const storageId = await deps.engine.storeBlob(staged.blob);
      await deps.durable();
      return sendJson(res, 200, { storageId });
    } finally {
      staged.discard();
    }
  }
  let storageId = "";
  try {
    storageId = decodeURIComponent(url.pathname.slice("/api/storage/".length));
  } catch {
    // Malformed escapes name no file: answered like one below.
  }
  if (req.method !== "GET" && req.method !== "HEAD")
    return sendJson(res, 405, { code: "MethodNotAllowed", message: "Use GET" });
  // A wrong token answers like a missing file, so ids cannot be probed.
  const signed = sameSecret(
    sign(deps.secret, `file:${storageId}`),
    url.searchParams.get("token") ?? "",
  );
  const meta =
    signed && deps.engine.database.tableOf(storageId) === "_storage"
      ? deps.engine.database.get(storageId)
      : null;
  const blob = meta ? deps.engine.database.file(storageId) : undefined;
  if (!meta || !blob) {
    res.writeHead(404, { "Content-Type": "text/plain", ...SAFE_FILE_HEADERS, ...CORS_HEADERS });
    return res.end("File not found");
  }
  res.writeHead(200, {
    ...fileHeaders((meta.contentType as string | undefined) || blob.type),
    "Content-Length": String(blob.size),
    "Cache-Control": "private, max-age=2592000, immutable",
    ...CORS_HEADERS,
  });
  if (req.method === "HEAD") return res.end();
  // A chunk at a time, from disk, as fast as the client reads.
  await pipeline(Readable.fromWeb(blob.stream() as never), res).catch(() => res.destroy());
}
