/**
 * POST /api/uploads?grant=<token>: the upload URLs files:generateUploadUrl hands out. The file is
 * stored for whoever asked for the URL (model/files.ts), which Convex's own upload URLs cannot tell;
 * answers `{storageId}` as they do. A URL stores one file, within an hour.
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
  if (!(await ctx.runQuery(internal.files.uploadUrlOpen, { token }))) throw urlUsedUp();
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_IMAGE_BYTES)
    throw fileTooLarge(LABEL);
  const blob = await request.blob();
  await assertImageBlob(blob, LABEL);
  const storageId = await ctx.storage.store(blob);
  if (!(await ctx.runMutation(internal.files.recordUrlUpload, { token, storageId }))) {
    await ctx.storage.delete(storageId);
    throw urlUsedUp();
  }
  return json(request, 200, { storageId });
}

export function addUploadRoutes(http: HttpRouter): void {
  addApiRoute(http, { path: "/api/uploads" }, { POST: upload });
}
