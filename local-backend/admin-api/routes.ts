// The deployment-admin HTTP endpoints the Convex CLI calls (all behind the admin key):
// canonical URLs, config hashes, the deploy2 push protocol, environment variables, export and import.
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { sameSecret } from "../auth-keys.ts";
import { BodyTooLarge, readBody, sendJson } from "../http-util.ts";
import { envChanges, EnvVarError, type EnvVars } from "./env-vars.ts";
import type { FunctionLogs } from "./function-logs.ts";
import { ImportError, type ImportService } from "./snapshot-import.ts";
import { PushError, type PushService } from "./push.ts";
import type { SnapshotService } from "./snapshots.ts";

export interface AdminApiDeps {
  adminKey: string;
  push: PushService;
  env: EnvVars;
  snapshots: SnapshotService;
  logs: FunctionLogs;
  imports: ImportService;
  urls(): { convexCloudUrl: string; convexSiteUrl: string };
  /** System queries read state outside the database (env, exports, imports): recompute them. */
  invalidateSystemQueries(): void;
}

/** A push of this project is ~0.5 MB brotli, 2.6 MB JSON; these leave ample room and bound memory. */
const MAX_WIRE_BYTES = 32 * 1024 * 1024;
const MAX_JSON_BYTES = 128 * 1024 * 1024;
const MAX_SMALL_BYTES = 1024 * 1024;

const brotliDecompress = promisify(zlib.brotliDecompress);
const gunzip = promisify(zlib.gunzip);

const PUSH_ROUTES = new Set([
  "/api/deploy2/start_push",
  "/api/deploy2/evaluate_push",
  "/api/deploy2/evaluate_schema",
  "/api/deploy2/wait_for_schema",
  "/api/deploy2/finish_push",
  "/api/deploy2/report_push_completed",
]);

export function isAdminApiPath(pathname: string): boolean {
  return (
    pathname === "/api/v1/get_canonical_urls" ||
    pathname === "/api/get_config_hashes" ||
    pathname === "/api/update_environment_variables" ||
    pathname === "/api/stream_function_logs" ||
    PUSH_ROUTES.has(pathname) ||
    pathname.startsWith("/api/export/") ||
    pathname.startsWith("/api/import/") ||
    pathname === "/api/perform_import" ||
    pathname === "/api/cancel_import"
  );
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One push step at a time: a push's steps and another push's never interleave. */
let pushQueue: Promise<unknown> = Promise.resolve();
const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
  const run = pushQueue.then(fn, fn);
  pushQueue = run.catch(() => {});
  return run;
};

export async function handleAdminApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: AdminApiDeps,
): Promise<void> {
  try {
    requireAdmin(req.headers.authorization, deps.adminKey);
    await route(req, res, url, deps);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      res.setHeader("Connection", "close");
      return sendJson(res, 413, { code: "PayloadTooLarge", message: "Request body too large" });
    }
    if (error instanceof HttpError)
      return sendJson(res, error.status, { code: error.code, message: error.message });
    if (error instanceof PushError)
      return sendJson(res, error.status, { code: error.code, message: error.message });
    if (error instanceof ImportError)
      return sendJson(res, 400, { code: "ImportFailed", message: error.message });
    if (error instanceof EnvVarError)
      return sendJson(res, 400, { code: "InvalidEnvironmentVariable", message: error.message });
    throw error;
  }
}

async function route(req: IncomingMessage, res: ServerResponse, url: URL, deps: AdminApiDeps) {
  const { pathname } = url;
  if (pathname === "/api/v1/get_canonical_urls") {
    if (req.method !== "GET") throw methodNotAllowed("GET");
    return sendJson(res, 200, deps.urls());
  }
  if (pathname === "/api/stream_function_logs") {
    if (req.method !== "GET") throw methodNotAllowed("GET");
    const cursor = Number(url.searchParams.get("cursor") ?? "0");
    if (!Number.isSafeInteger(cursor) || cursor < 0)
      throw new HttpError(400, "BadCursor", "cursor must be a non-negative integer");
    const closed = new Promise<void>((resolve) => res.once("close", resolve));
    return sendJson(res, 200, await deps.logs.after(cursor, closed));
  }
  if (pathname.startsWith("/api/export/zip/") && req.method === "GET")
    return deps.snapshots.download(res, pathname.slice("/api/export/zip/".length));
  if (req.method !== "POST") throw methodNotAllowed("POST");
  if (pathname === "/api/import/upload_part") {
    const body = await readBody(req, deps.imports.maxPartBytes);
    const params = url.searchParams;
    const token = deps.imports.uploadPart(
      params.get("uploadToken") ?? "",
      params.get("partNumber") ?? "",
      body,
    );
    return sendJson(res, 200, token);
  }
  const isPush =
    pathname === "/api/deploy2/start_push" || pathname.startsWith("/api/deploy2/evaluate");
  const body = await readJson(req, isPush ? MAX_JSON_BYTES : MAX_SMALL_BYTES, deps.adminKey);
  if (PUSH_ROUTES.has(pathname))
    return sendJson(res, 200, await serialized(async () => await pushStep(pathname, body, deps)));
  switch (pathname) {
    case "/api/get_config_hashes":
      return sendJson(res, 200, deps.push.configHashes());
    case "/api/update_environment_variables": {
      const parsed = envChanges.safeParse(body);
      if (!parsed.success)
        throw new HttpError(400, "BadRequest", "Expected {changes: [{name, value?}]}");
      deps.env.update(parsed.data.changes);
      deps.invalidateSystemQueries();
      return sendJson(res, 200, {});
    }
    case "/api/import/start_upload":
      return sendJson(res, 200, deps.imports.startUpload());
    case "/api/import/finish_upload": {
      const result = deps.imports.finishUpload(body);
      deps.invalidateSystemQueries();
      return sendJson(res, 200, result);
    }
    case "/api/perform_import": {
      const result = await deps.imports.performImport(body);
      deps.invalidateSystemQueries();
      return sendJson(res, 200, result);
    }
    case "/api/cancel_import":
      deps.imports.cancelImport(body);
      deps.invalidateSystemQueries();
      return sendJson(res, 200, {});
    case "/api/export/request/zip":
      await deps.snapshots.requestExport(url.searchParams.get("includeStorage") === "true");
      deps.invalidateSystemQueries();
      return sendJson(res, 200, {});
  }
  throw new HttpError(404, "NotFound", `No admin endpoint ${pathname}`);
}

function pushStep(pathname: string, body: unknown, deps: AdminApiDeps): Promise<unknown> | unknown {
  switch (pathname) {
    case "/api/deploy2/start_push":
      return deps.push.startPush(body);
    case "/api/deploy2/evaluate_push":
      return deps.push.evaluatePush(body);
    case "/api/deploy2/evaluate_schema":
      return deps.push.evaluateSchema(body);
    case "/api/deploy2/wait_for_schema":
      return deps.push.waitForSchema(body);
    case "/api/deploy2/finish_push":
      return deps.push.finishPush(body);
    default:
      return {};
  }
}

const methodNotAllowed = (method: string) =>
  new HttpError(405, "MethodNotAllowed", `Use ${method}`);

/** `Authorization: Convex <admin key>`, as the CLI sends it; anything else is refused. */
function requireAdmin(header: string | undefined, adminKey: string) {
  if (!header?.startsWith("Convex "))
    throw new HttpError(
      401,
      "MissingAdminKey",
      "This endpoint needs the deployment's admin key (Authorization: Convex <admin key>).",
    );
  if (!sameSecret(adminKey, header.slice("Convex ".length).trim()))
    throw new HttpError(401, "BadAdminKey", "The provided admin key was invalid for this instance");
}

/** The JSON body, decompressed (brotli or gzip) within `limit`; an `adminKey` in it must be ours too. */
async function readJson(req: IncomingMessage, limit: number, adminKey: string): Promise<unknown> {
  const raw = await readBody(req, Math.min(limit, MAX_WIRE_BYTES));
  const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
  let text: Buffer;
  try {
    if (encoding === "br") text = await brotliDecompress(raw, { maxOutputLength: limit });
    else if (encoding === "gzip") text = await gunzip(raw, { maxOutputLength: limit });
    else if (encoding === "identity") text = raw;
    else
      throw new HttpError(415, "UnsupportedEncoding", `Unsupported Content-Encoding ${encoding}`);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof RangeError) throw new BodyTooLarge();
    throw new HttpError(400, "BadBody", "The request body could not be decompressed");
  }
  if (text.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(text.toString("utf8"));
  } catch {
    throw new HttpError(400, "BadJsonBody", "The request body is not valid JSON");
  }
  const given = (body as { adminKey?: unknown } | null)?.adminKey;
  if (given !== undefined && (typeof given !== "string" || !sameSecret(adminKey, given)))
    throw new HttpError(401, "BadAdminKey", "The provided admin key was invalid for this instance");
  return body;
}
