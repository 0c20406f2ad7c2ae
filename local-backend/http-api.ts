// POST /api/query|mutation|action|function as ConvexHttpClient (and @convex-dev/auth's
// token refresh) use them: 200 {status:"success"} or 560 {status:"error"}.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JSONValue } from "convex/values";
import { FunctionError, type Engine, type FunctionKind, type Identity } from "./engine/engine.ts";
import { AuthError } from "./auth-config.ts";
import { sameSecret, type TokenVerifier } from "./auth-keys.ts";
import { BodyTooLarge, readBody, sendJson, sendJsonText, serverError } from "./http-util.ts";

export interface HttpApiDeps {
  engine: Engine;
  verifyToken: TokenVerifier;
  adminKey: string;
  durable(): Promise<void>;
}

/** Convex's limit on a function call's request body. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

const ROUTES: Record<string, FunctionKind | "any"> = {
  "/api/query": "query",
  "/api/mutation": "mutation",
  "/api/action": "action",
  "/api/function": "any",
};

export const isHttpApiPath = (pathname: string) =>
  pathname in ROUTES || pathname === "/api/query_ts";

/** Resolves the caller from the Authorization header; throws on a bad credential. */
export async function callerFrom(
  header: string | undefined,
  verifyToken: TokenVerifier,
  adminKey: string,
): Promise<{ identity: Identity | null; admin: boolean }> {
  if (!header) return { identity: null, admin: false };
  const [scheme, ...rest] = header.split(" ");
  const value = rest.join(" ").trim();
  if (scheme === "Convex") {
    if (!sameSecret(adminKey, value))
      throw new Error("The provided admin key is invalid for this deployment");
    return { identity: null, admin: true };
  }
  if (scheme === "Bearer") return { identity: await verifyToken(value), admin: false };
  throw new Error(`Unsupported authorization scheme ${scheme}`);
}

export async function handleHttpApi(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  deps: HttpApiDeps,
) {
  if (pathname === "/api/query_ts")
    return sendJson(res, 200, { ts: deps.engine.currentTs().toString() });
  if (req.method !== "POST")
    return sendJson(res, 405, { code: "MethodNotAllowed", message: "Use POST" });
  let caller: { identity: Identity | null; admin: boolean };
  try {
    caller = await callerFrom(req.headers.authorization, deps.verifyToken, deps.adminKey);
  } catch (error) {
    return sendJson(res, 401, {
      code: error instanceof AuthError ? error.code : "Unauthenticated",
      message: error instanceof Error ? error.message : String(error),
    });
  }
  let body: { path: string; args: JSONValue } | string;
  try {
    body = parseCall((await readBody(req, MAX_BODY_BYTES)).toString("utf8"));
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    res.setHeader("Connection", "close");
    return sendJson(res, 413, {
      code: "PayloadTooLarge",
      message: "The request body is larger than 16 MB.",
    });
  }
  if (typeof body === "string") return sendJson(res, 400, { code: "BadJsonBody", message: body });
  const { path, args } = body;
  try {
    const { kind } = await deps.engine.resolve(path, ROUTES[pathname], caller.admin);
    if (kind === "query") {
      const outcome = await deps.engine.query(path, args, caller);
      if (!outcome.ok) throw new FunctionError(outcome.message, outcome.data, outcome.logLines);
      // the value's text as the run wrote it, not serialised once more
      const value = outcome.valueJson ?? JSON.stringify(outcome.value);
      return sendJsonText(
        res,
        200,
        `{"status":"success","value":${value},"logLines":${JSON.stringify(outcome.logLines)}}`,
      );
    }
    const result = await deps.engine.call(kind, path, args, caller);
    // Durable before the answer; subscribers get the change on their own time, as on Convex (waiting
    // for them would make this caller wait for whichever connection has the most to re-run).
    await deps.durable();
    sendJson(res, 200, { status: "success", value: result.value, logLines: result.logLines });
  } catch (error) {
    // What a function threw is the caller's to see (as on a dev deployment); anything else is ours.
    const e =
      error instanceof FunctionError
        ? error
        : new FunctionError(serverError(error, `${pathname} ${path}`), undefined, []);
    sendJson(res, 560, {
      status: "error",
      errorMessage: e.message,
      ...(e.data !== undefined ? { errorData: e.data } : {}),
      logLines: e.logLines,
    });
  }
}

/** The call in a request body (`{path, args}`; args an object or, as ConvexHttpClient sends it, `[object]`), or why it is malformed. */
function parseCall(text: string): { path: string; args: JSONValue } | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return `Request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return "Request body must be a JSON object with `path` and `args`";
  const { path, args } = body as { path?: unknown; args?: unknown };
  if (typeof path !== "string") return "`path` must be a string";
  const single = Array.isArray(args) && args.length === 1 ? (args[0] as unknown) : args;
  if (typeof single !== "object" || single === null || Array.isArray(single))
    return "`args` must be an object (or an array of one object)";
  return { path, args: single as JSONValue };
}
