/**
 * POST /api/uploads?grant=<token>: the upload URLs files:generateUploadUrl hands out. The file is
 * stored for whoever asked for the URL (model/files.ts), which Convex's own upload URLs cannot tell;
 * answers `{storageId}` as they do. A URL stores one file, within an hour, if it fits the owner's
 * quota of unattached uploads (model/files.ts assertUploadRoom).
 */
import type { HttpRouter } from "convex/server";
import { internal } from "../_generated/api";
import type { ActionCtx } from "../_generated/server";
import { MAX_IMAGE_BYTES, assertImageBlob, fileTooLarge } from "../model/files";
import { ApiError, addApiRoute, json } from "./transport";

const LABEL = "The file";

function urlUsedUp(): ApiError {
  return new ApiError(
    "UPLOAD_URL_INVALID",
    "This upload link was used or has expired; please try again.",
    403,
  );
}

async function upload(ctx: ActionCtx, request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get("grant") ?? "";
  // refused before anything is read; a body without a length is counted as the largest file
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (declared > MAX_IMAGE_BYTES) throw fileTooLarge(LABEL);
  const bytes = Number.isFinite(declared) && declared >= 0 ? declared : MAX_IMAGE_BYTES;
  if (!(await ctx.runQuery(internal.files.uploadUrlOpen, { token, bytes }))) throw urlUsedUp();
  // Convex caps a body at 20 MB and assertImageBlob refuses one past MAX_IMAGE_BYTES; read as one Blob
  // (not chunk by chunk into a new one), a runtime that keeps large bodies on disk never copies it.
  const blob = await request.blob();
  await assertImageBlob(blob, LABEL);
  const storageId = await ctx.storage.store(blob);
  let recorded: boolean;
  try {
    recorded = await ctx.runMutation(internal.files.recordUrlUpload, { token, storageId });
  } catch (error) {
    await ctx.storage.delete(storageId); // over the quota after all (uploads raced)
    throw error;
  }
  if (!recorded) {
    await ctx.storage.delete(storageId);
    throw urlUsedUp();
  }
  return json(request, 200, { storageId });
}

export function addUploadRoutes(http: HttpRouter): void {
  addApiRoute(http, { path: "/api/uploads" }, { POST: upload });
}
