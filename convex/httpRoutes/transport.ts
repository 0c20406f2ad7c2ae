/**
 * The transport of the /api/* HTTP actions: JSON answers, CORS, error mapping, body parsing and
 * Bearer-token authentication. Every route answers JSON; errors are `{success: false, code, message}`
 * with a 4xx status — never a 500 or a stack trace.
 */
import type { HttpRouter } from "convex/server";
import { ConvexError } from "convex/values";
import { internal } from "../_generated/api";
import { httpAction, type ActionCtx } from "../_generated/server";
import type { ErrorCode } from "../model/errors";
import type { Role } from "../validators";

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type ApiHandler = (ctx: ActionCtx, request: Request) => Promise<Response>;
export type ApiRoute = { path: string } | { pathPrefix: string };

const METHODS: ApiMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The status an error code answers with; anything not listed is a 400. */
const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  TWO_FACTOR_REQUIRED: 401,
  INVALID_CODE: 401,
  FORBIDDEN: 403,
  TWO_FACTOR_SETUP_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_TAKEN: 409,
  PHONE_TAKEN: 409,
  USERNAME_TAKEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  FILE_NOT_IMAGE: 415,
  UPLOAD_QUOTA_FULL: 413,
  TOO_MANY_ATTEMPTS: 429,
  RATE_LIMITED: 429,
  DRAFT_USED_UP: 429,
  TOO_MANY_OPEN_REQUESTS: 429,
};

export function statusForCode(code: string): number {
  return STATUS_BY_CODE[code as ErrorCode] ?? 400;
}

/** Thrown (or returned) by route code to answer with a specific code and message. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = statusForCode(code),
  ) {
    super(message);
  }
}

/**
 * Browsers send the spec's requests "with credentials", which needs the request's own origin echoed
 * back. Auth is by Bearer header only (no cookies), so credentials grant nothing cross-site.
 */
export function corsHeaders(request: Request): Record<string, string> {
  const origin = request.headers.get("Origin");
  if (origin === null) return { Vary: "Origin" };
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    Vary: "Origin",
  };
}

export function json(request: Request, status: number, body: unknown): Response {
  return jsonText(request, status, JSON.stringify(body));
}

/** A JSON answer whose text is already made (a query that serialises what it returns). */
export function jsonText(request: Request, status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...corsHeaders(request) },
  });
}

export function apiError(
  request: Request,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const response = json(request, status, { success: false, code, message });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Maps anything thrown by a route to a JSON 4xx answer. */
export function errorResponse(request: Request, error: unknown): Response {
  if (error instanceof ApiError) {
    return apiError(request, error.status, error.code, error.message);
  }
  if (error instanceof ConvexError) {
    const data = error.data as unknown;
    if (
      typeof data === "object" &&
      data !== null &&
      "code" in data &&
      typeof data.code === "string"
    ) {
      const message =
        "message" in data && typeof data.message === "string" ? data.message : data.code;
      // a rate limit says when to come back (model/rateLimit.ts)
      const retry =
        "retryAfterMs" in data && typeof data.retryAfterMs === "number" ? data.retryAfterMs : null;
      const headers: Record<string, string> =
        retry === null ? {} : { "Retry-After": String(Math.max(1, Math.ceil(retry / 1000))) };
      return apiError(request, statusForCode(data.code), data.code, message, headers);
    }
    return apiError(
      request,
      400,
      "BAD_REQUEST",
      typeof data === "string" ? data : "The request was refused.",
    );
  }
  // Argument validation failures and other unexpected errors: log for the operator, answer plainly.
  console.error("API request failed:", error);
  return apiError(request, 400, "BAD_REQUEST", "The request could not be processed.");
}

function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(request),
      "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "Access-Control-Allow-Headers":
        request.headers.get("Access-Control-Request-Headers") ?? "Authorization, Content-Type",
      "Access-Control-Max-Age": "86400",
    },
  });
}

const INVALID_TOKEN = "Send a valid token: Authorization: Bearer <token>.";

/** Whether the request carries no token, or one the deployment verifies. */
async function tokenVerifies(ctx: ActionCtx, request: Request): Promise<boolean> {
  if (!request.headers.has("Authorization")) return true;
  return await ctx.auth.getUserIdentity().then(
    () => true,
    () => false,
  );
}

/**
 * Wraps a handler so it never answers with a 500 and always carries CORS headers. Convex runs an
 * action whatever its token and throws only where the identity is read (signing in reads it too, to
 * replace the session): a route that failed that way answers 401, one that never reads it still works.
 */
export function apiAction(handler: ApiHandler) {
  return httpAction(async (ctx, request) => {
    try {
      return await handler(ctx, request);
    } catch (error) {
      const expected = error instanceof ApiError || error instanceof ConvexError;
      if (!expected && !(await tokenVerifies(ctx, request)))
        return apiError(request, 401, "UNAUTHENTICATED", INVALID_TOKEN);
      return errorResponse(request, error);
    }
  });
}

/**
 * Registers the given methods for a path (or prefix), a CORS preflight for it, and a JSON 405 for
 * every other method. Call once per path with all its methods.
 */
export function addApiRoute(
  http: HttpRouter,
  route: ApiRoute,
  handlers: Partial<Record<ApiMethod, ApiHandler>>,
): void {
  const allowed = METHODS.filter((m) => handlers[m] !== undefined);
  for (const method of METHODS) {
    const handler = handlers[method];
    const action = handler
      ? apiAction(handler)
      : apiAction(async (_ctx, request) =>
          apiError(
            request,
            405,
            "METHOD_NOT_ALLOWED",
            `Use ${allowed.join(" or ")} for this endpoint.`,
          ),
        );
    http.route({ ...route, method, handler: action });
  }
  http.route({
    ...route,
    method: "OPTIONS",
    handler: httpAction(async (_ctx, request) => preflight(request)),
  });
}

/** JSON 404 (and CORS preflight) for every /api/* path no route claims. */
export function addApiFallback(http: HttpRouter): void {
  for (const method of METHODS) {
    http.route({
      pathPrefix: "/api/",
      method,
      handler: apiAction(async (_ctx, request) =>
        apiError(
          request,
          404,
          "NOT_FOUND",
          `No endpoint ${method} ${new URL(request.url).pathname}.`,
        ),
      ),
    });
  }
  http.route({
    pathPrefix: "/api/",
    method: "OPTIONS",
    handler: httpAction(async (_ctx, request) => preflight(request)),
  });
}

const MAX_JSON_BYTES = 64 * 1024;

const tooLarge = () => new ApiError("PAYLOAD_TOO_LARGE", "The request body is too large.");

/**
 * The body's bytes, refused with a 413 as soon as they pass `max`: by its Content-Length before a
 * byte is read, else while it streams in (a body sent without a length is never read past `max`).
 */
async function readCapped(request: Request, max: number): Promise<Uint8Array<ArrayBuffer>> {
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (Number.isFinite(length) && length > max) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** Parses a JSON object body (415 for another content type, 400 for malformed JSON, 413 if too large). */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.");
  }
  const text = new TextDecoder().decode(await readCapped(request, MAX_JSON_BYTES));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_JSON", "The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("INVALID_JSON", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

/** Parses a multipart (or url-encoded) form; `maxBytes` bounds the whole body. */
export async function readForm(request: Request, maxBytes: number): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (
    !type.toLowerCase().includes("multipart/form-data") &&
    !type.toLowerCase().includes("application/x-www-form-urlencoded")
  ) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the form as multipart/form-data.");
  }
  const bytes = await readCapped(request, maxBytes);
  try {
    return await new Response(bytes, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new ApiError("INVALID_FORM", "The form data could not be read.");
  }
}

/** A required non-empty string field of a parsed body. */
export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== "string" || value.trim() === "") {
    throw new ApiError("INVALID_INPUT", `The field "${name}" is required.`);
  }
  return value;
}

export type ApiViewer = { _id: string; role: Role; name: string };

/** The user behind the token, an admin who has not set up two-factor too (only signing out needs it). */
export async function apiSessionUser(ctx: ActionCtx) {
  // a token Convex cannot verify throws here, and apiAction answers it with the same 401
  const viewer = await ctx.runQuery(internal.users.apiViewer, {});
  if (viewer === null) {
    throw new ApiError("UNAUTHENTICATED", INVALID_TOKEN);
  }
  return viewer;
}

/**
 * The user behind `Authorization: Bearer <token>` (verified by Convex against auth's JWKS, and its
 * session still open), optionally required to hold one of `roles`.
 */
export async function requireApiUser(ctx: ActionCtx, ...roles: Role[]): Promise<ApiViewer> {
  const { profile: viewer, awaitsTwoFactor } = await apiSessionUser(ctx);
  if (awaitsTwoFactor) {
    throw new ApiError(
      "TWO_FACTOR_SETUP_REQUIRED",
      "Set up two-factor sign-in before using the admin panel.",
    );
  }
  if (roles.length > 0 && !roles.includes(viewer.role)) {
    throw new ApiError("FORBIDDEN", "You are not allowed to do this.");
  }
  return { _id: viewer._id, role: viewer.role, name: viewer.name };
}
