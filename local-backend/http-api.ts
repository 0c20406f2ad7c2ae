// POST /api/query|mutation|action|function as ConvexHttpClient (and @convex-dev/auth's
// token refresh) use them: 200 {status:"success"} or 560 {status:"error"}.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JSONValue } from "convex/values";
import { FunctionError, type Engine, type FunctionKind, type Identity } from "./engine/engine.ts";
import { sameSecret, type TokenVerifier } from "./auth-keys.ts";
import type { Subscriptions } from "./read-tracking/subscriptions.ts";
import { readBody, sendJson } from "./http-util.ts";

export interface HttpApiDeps {
  engine: Engine;
  subscriptions: Subscriptions;
  verifyToken: TokenVerifier;
  adminKey: string;
  durable(): Promise<void>;
}

const ROUTES: Record<string, FunctionKind | "any"> = {
  "/api/query": "query",
  "/api/mutation": "mutation",
  "/api/action": "action",
  "/api/function": "any",
};

export const isHttpApiPath = (pathname: string) => pathname in ROUTES || pathname === "/api/query_ts";

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
    if (!sameSecret(adminKey, value)) throw new Error("The provided admin key is invalid for this deployment");
    return { identity: null, admin: true };
  }
  if (scheme === "Bearer") return { identity: await verifyToken(value), admin: false };
  throw new Error(`Unsupported authorization scheme ${scheme}`);
}

export async function handleHttpApi(req: IncomingMessage, res: ServerResponse, pathname: string, deps: HttpApiDeps) {
  if (pathname === "/api/query_ts") return sendJson(res, 200, { ts: deps.engine.currentTs().toString() });
  if (req.method !== "POST") return sendJson(res, 405, { code: "MethodNotAllowed", message: "Use POST" });
  let caller: { identity: Identity | null; admin: boolean };
  try {
    caller = await callerFrom(req.headers.authorization, deps.verifyToken, deps.adminKey);
  } catch (error) {
    return sendJson(res, 401, { code: "Unauthenticated", message: error instanceof Error ? error.message : String(error) });
  }
  let body: { path: string; args: JSONValue };
  try {
    body = JSON.parse((await readBody(req, 16 * 1024 * 1024)).toString("utf8"));
  } catch {
    return sendJson(res, 400, { code: "BadJsonBody", message: "Request body is not valid JSON" });
  }
  const args = Array.isArray(body.args) ? body.args[0] : body.args;
  try {
    const { kind } = await deps.engine.resolve(body.path, ROUTES[pathname], caller.admin);
    if (kind === "query") {
      const outcome = await deps.engine.query(body.path, args, caller);
      if (!outcome.ok) throw new FunctionError(outcome.message, outcome.data, outcome.logLines);
      return sendJson(res, 200, { status: "success", value: outcome.value, logLines: outcome.logLines });
    }
    const result = await deps.engine.call(kind, body.path, args, caller);
    await Promise.all([deps.durable(), deps.subscriptions.flushedThrough(deps.engine.currentTs())]);
    sendJson(res, 200, { status: "success", value: result.value, logLines: result.logLines });
  } catch (error) {
    const e = error instanceof FunctionError ? error : new FunctionError(String(error), undefined, []);
    sendJson(res, 560, {
      status: "error",
      errorMessage: e.message,
      ...(e.data !== undefined ? { errorData: e.data } : {}),
      logLines: e.logLines,
    });
  }
}
