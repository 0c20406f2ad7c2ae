// The site port (CONVEX_SITE_URL): every request goes to convex/http.ts's router,
// with a Bearer JWT verified into ctx.auth.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Engine } from "./engine/engine.ts";
import type { TokenVerifier } from "./auth-keys.ts";
import { BodyTooLarge, readBody } from "./http-util.ts";

/** Convex's limit on an HTTP action's request body. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

export async function handleSite(
  req: IncomingMessage,
  res: ServerResponse,
  engine: Engine,
  verifyToken: TokenVerifier,
  durable: () => Promise<void>,
) {
  let identity = null;
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) {
    try {
      identity = await verifyToken(auth.slice("Bearer ".length).trim());
    } catch (error) {
      res.writeHead(401, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
      return res.end(JSON.stringify({ code: "Unauthenticated", message: `Could not verify token: ${error instanceof Error ? error.message : String(error)}` }));
    }
  }
  const method = req.method ?? "GET";
  let body: Buffer | undefined;
  try {
    body = method === "GET" || method === "HEAD" ? undefined : await readBody(req, MAX_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    // Answered here (as Convex does) rather than as a 500 from the generic request handler.
    res.writeHead(413, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
    return res.end(JSON.stringify({ code: "PayloadTooLarge", message: "The request body is larger than 20 MB." }));
  }
  // Name/value pairs as received: the Request convex-test builds copies them into its own Headers.
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
  let response: Response;
  if (!(await engine.hasHttpRouter())) response = new Response("No HTTP routes (convex/http.ts) defined", { status: 404 });
  else {
    try {
      response = await engine.accessor(identity).fetch(req.url ?? "/", {
        method,
        headers,
        body: body === undefined ? undefined : new Uint8Array(body),
      });
    } catch (error) {
      console.error(`local-backend: HTTP action ${method} ${req.url} failed`, error);
      response = new Response(JSON.stringify({ code: "HttpActionError", message: error instanceof Error ? error.message : String(error) }), { status: 500 });
    }
  }
  await durable();
  const out: Record<string, string[]> = {};
  response.headers.forEach((value, name) => {
    (out[name] ??= []).push(value);
  });
  const setCookie = response.headers.getSetCookie?.();
  if (setCookie?.length) out["set-cookie"] = setCookie;
  const bytes = Buffer.from(await response.arrayBuffer());
  // A known length instead of chunked encoding (the headers are written before the body).
  if (!out["content-length"] && !out["transfer-encoding"] && response.status !== 204 && response.status !== 304) {
    out["content-length"] = [String(bytes.length)];
  }
  res.writeHead(response.status, out);
  res.end(bytes);
}
