// The site port (CONVEX_SITE_URL): every request goes to convex/http.ts's router,
// with the caller's Bearer token verified by the app's auth providers into ctx.auth (auth-config.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpRouter, RoutableMethod } from "convex/server";
import {
  refusedIdentity,
  type Engine,
  type HttpActionAnswer,
  type HttpActionCaller,
} from "./engine/engine.ts";
import type { RequestBody } from "./engine/action-pool.ts";
import type { TokenVerifier } from "./auth-keys.ts";
import { answerFailure, BodyTooLarge, serverError } from "./http-util.ts";
import { LeanResponse } from "./lean-fetch.ts";

/** Convex's limit on an HTTP action's request body. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;
/** A connection whose request was answered before its body was read is closed after this at most. */
const LINGER_MS = 2_000;

export interface SiteDeps {
  engine: Engine;
  verifyToken: TokenVerifier;
  durable(): Promise<void>;
  /** Whether everything committed so far is on disk already (durable() would not wait). */
  isDurable(): boolean;
  /** This port's URL (CONVEX_SITE_URL): the origin of an HTTP action's `request.url`. */
  siteUrl: string;
  /** Origins a response may grant cross-origin access to (see `limitCors`). */
  corsOrigins: ReadonlySet<string>;
  /** Stages a body on disk (Persistence.stageUpload): throws BodyTooLarge past `maxBytes`. */
  stageUpload(
    body: AsyncIterable<Uint8Array>,
    maxBytes: number,
    type: string,
  ): Promise<{ file: string; discard(): void }>;
}

/**
 * The request's body, read from the socket only as the handler asks for it (engine/action-pool.ts):
 * nothing is held here; what the handler reads as a Blob is staged on disk for it. Past MAX_BODY_BYTES
 * `tooLarge` answers and the read fails. `discard()` removes a staged file once the action answered.
 */
function bodyOf(
  req: IncomingMessage,
  deps: SiteDeps,
  tooLarge: () => void,
): RequestBody & { discard(): void } {
  const chunks = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let size = 0;
  let staged: { discard(): void } | undefined;
  return {
    async next() {
      if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
      const next = await chunks.next();
      if (next.done) return null;
      size += next.value.length;
      if (size <= MAX_BODY_BYTES) return next.value;
      tooLarge();
      throw new BodyTooLarge();
    },
    async stage(type) {
      async function* rest() {
        for (let next = await chunks.next(); !next.done; next = await chunks.next())
          yield next.value;
      }
      try {
        const file = await deps.stageUpload(rest(), MAX_BODY_BYTES - size, type);
        staged = file;
        return file.file;
      } catch (error) {
        if (error instanceof BodyTooLarge) tooLarge();
        throw error;
      }
    },
    discard: () => staged?.discard(),
  };
}

/**
 * Whatever of the body the handler left unread is not read: Node would read it to discard it
 * (IncomingMessage._dump) and close at once once answered (destroySoon), and closing with bytes
 * unread resets the connection, which can lose the answer at the client. The answer goes out with
 * `Connection: close` and a FIN; the socket is closed after LINGER_MS.
 */
function leaveUnread(req: IncomingMessage, res: ServerResponse) {
  if (req.complete) return;
  res.shouldKeepAlive = false;
  (req as unknown as { _dumped: boolean })._dumped = true;
  const socket = req.socket;
  socket.pause();
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** Convex's answer to a body over its limit. */
function bodyTooLarge(req: IncomingMessage, res: ServerResponse) {
  if (res.headersSent) return;
  leaveUnread(req, res);
  res.writeHead(413, {
    "Content-Type": "application/json",
    "Access-Control-Allow-Origin": "*",
  });
  res.end(
    JSON.stringify({
      code: "PayloadTooLarge",
      message: "The request body is larger than 20 MB.",
    }),
  );
}

export class InvalidCorsOrigin extends Error {}

/**
 * The allowed origins: the web app's and the configured ones, each exactly `scheme://host[:port]`.
 * Throws InvalidCorsOrigin for anything else (a path, `*`, `null`).
 */
export function parseCorsOrigins(webOrigin: string, configured: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const value of [webOrigin, ...configured]) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      // Reported below.
    }
    const origin =
      url && (url.protocol === "http:" || url.protocol === "https:") ? url.origin : undefined;
    if (!origin || (value !== webOrigin && value.replace(/\/$/, "") !== origin)) {
      throw new InvalidCorsOrigin(
        `local-backend: ${JSON.stringify(value)} is not an origin (expected scheme://host[:port], e.g. https://partner.example)`,
      );
    }
    origins.add(origin);
  }
  return origins;
}

/** Origins from LOCAL_BACKEND_CORS_ORIGINS: comma- or space-separated. */
export const corsOriginsFromEnv = (value: string | undefined) =>
  (value ?? "").split(/[\s,]+/).filter(Boolean);

/**
 * Convex adds no CORS headers to HTTP actions: the app's router does, and GharSewa's echoes any caller's
 * Origin with credentials. Here a response may grant access to the allowed origins only: an
 * Access-Control-Allow-Origin naming any other origin (`null` included) is dropped with its
 * Access-Control-Allow-Credentials, so the browser keeps the response from that page. `*` stays
 * (browsers never send credentials to it).
 */
function limitCors(headers: Record<string, string[]>, allowed: ReadonlySet<string>) {
  const granted = headers["access-control-allow-origin"];
  if (!granted) return;
  if (granted.length === 1 && granted[0].trim() === "*") {
    delete headers["access-control-allow-credentials"];
    return;
  }
  if (granted.length === 1 && allowed.has(granted[0].trim())) return;
  delete headers["access-control-allow-origin"];
  delete headers["access-control-allow-credentials"];
}

/** Routes looked up per router, by method and path; at most this many are remembered. */
const MAX_ROUTES = 1_000;
type Route = NonNullable<ReturnType<HttpRouter["lookup"]>>;
const routeCaches = new WeakMap<HttpRouter, Map<string, Route | null>>();

/** `router.lookup`, remembered: routes are registered when http.ts loads and never change after. */
function lookupRoute(router: HttpRouter, path: string, method: string): Route | null {
  let cache = routeCaches.get(router);
  if (cache === undefined) routeCaches.set(router, (cache = new Map()));
  const key = `${method} ${path}`;
  let found = cache.get(key);
  if (found === undefined) {
    found = router.lookup(path, method as RoutableMethod);
    // Paths are the client's to choose: the oldest entry goes first.
    if (cache.size >= MAX_ROUTES) cache.delete(cache.keys().next().value as string);
    cache.set(key, found);
  }
  return found;
}

/** What the site port needs of a request's URL. */
export interface TargetUrl {
  href: string;
  pathname: string;
}

/**
 * A target the URL parser leaves as it is: segments of letters, digits and `-._~!$&()*+,;=:@` (none
 * starting with a dot, so no dot segments), then an optional query of those and `/?`. No `%`, `#`, `'`,
 * backslash or anything else the parser would encode or resolve.
 */
const PLAIN_TARGET = /^(?:\/(?!\.)[\w\-.~!$&()*+,;=:@]*)+(?:\?[\w\-.~!$&()*+,;=:@/?]*)?$/;
/** The site URL as the parser serialises an origin (a default port dropped), by site URL. */
const origins = new Map<string, string>();

/**
 * The request target as a URL on the site port; null for one that is not a path (`*`, absolute-form)
 * or not a URL. A plain target is its own serialisation, so it is not parsed.
 */
export function targetUrl(siteUrl: string, target: string): TargetUrl | null {
  if (target.charCodeAt(0) !== 0x2f /* / */) return null;
  let origin = origins.get(siteUrl);
  if (origin === undefined) origins.set(siteUrl, (origin = new URL(siteUrl).origin));
  if (PLAIN_TARGET.test(target)) {
    const query = target.indexOf("?");
    return { href: origin + target, pathname: query < 0 ? target : target.slice(0, query) };
  }
  try {
    return new URL(origin + target);
  } catch {
    return null;
  }
}

/**
 * Answers one request. Returns a promise only while work is left that may fail (the caller answers a
 * 500 for it); an HTTP action's run ends in handlers that answer every outcome themselves. A GET on the
 * lean path costs one promise besides the handler's own: on Node 20 every promise pays the async
 * context's hook, about as much as anything else a request does.
 */
export function handleSite(
  req: IncomingMessage,
  res: ServerResponse,
  deps: SiteDeps,
): Promise<unknown> | undefined {
  const url = targetUrl(deps.siteUrl, req.url ?? "/");
  if (url === null) {
    res.writeHead(400, { "Content-Type": "text/plain", "Access-Control-Allow-Origin": "*" });
    res.end("Bad request target");
    return undefined;
  }
  // As on Convex, a token that does not verify does not stop the request: the HTTP action runs, and
  // reading its identity throws why the token was refused.
  const auth = req.headers.authorization;
  if (auth === undefined) return serve(req, res, deps, url, ANONYMOUS);
  if (!/^bearer ./i.test(auth))
    return serve(req, res, deps, url, {
      identity: refusedIdentity("Header must begin with `bearer `"),
      token: null,
    });
  const token = auth.slice("bearer ".length).trim();
  return deps.verifyToken(token).then(
    (identity) => serve(req, res, deps, url, { identity, token }),
    (error: unknown) =>
      serve(req, res, deps, url, {
        identity: refusedIdentity(error instanceof Error ? error.message : String(error)),
        token,
      }),
  );
}

const ANONYMOUS: HttpActionCaller = { identity: null, token: null };

function serve(
  req: IncomingMessage,
  res: ServerResponse,
  deps: SiteDeps,
  url: TargetUrl,
  caller: HttpActionCaller,
): Promise<unknown> | undefined {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return route(req, res, deps, url, caller, null);
  // Answered here (as Convex does) rather than as a 500 from the generic request handler.
  if (Number(req.headers["content-length"] ?? "0") > MAX_BODY_BYTES)
    return void bodyTooLarge(req, res);
  return route(
    req,
    res,
    deps,
    url,
    caller,
    bodyOf(req, deps, () => bodyTooLarge(req, res)),
  );
}

function route(
  req: IncomingMessage,
  res: ServerResponse,
  deps: SiteDeps,
  url: TargetUrl,
  caller: HttpActionCaller,
  body: (RequestBody & { discard(): void }) | null,
): Promise<unknown> | undefined {
  const router = deps.engine.loadedHttpRouter();
  if (router === undefined)
    return deps.engine.httpRouter().then(() => route(req, res, deps, url, caller, body));
  if (router === null) {
    return respond(
      req,
      res,
      deps,
      new Response("This Convex deployment does not have HTTP actions enabled.", {
        status: 404,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      }),
    );
  }
  // Methods, not arrow functions: tsx names every arrow function it makes, a property write per closure.
  // An answer after the 413 of a body past the limit is dropped (the handler failed reading it).
  const answer: HttpActionAnswer = {
    answered(response) {
      body?.discard();
      if (res.headersSent) return void response.body?.cancel().catch(() => {});
      settle(req, res, () => respond(req, res, deps, response));
    },
    // What Convex answers for an HTTP action that threw; the error itself goes to the server log.
    failed(error) {
      body?.discard();
      if (res.headersSent) return;
      settle(req, res, () =>
        respond(
          req,
          res,
          deps,
          new Response(
            JSON.stringify({ code: serverError(error, `HTTP action ${req.method} ${req.url}`) }),
            { status: 500, headers: { "Content-Type": "application/json" } },
          ),
        ),
      );
    },
  };
  try {
    runRoute(deps.engine, router, url, caller, req, body, answer);
  } catch (error) {
    answer.failed(error);
  }
  return undefined;
}

/** Runs the answer's last steps; what they throw (or reject with) is a logged 500. */
function settle(req: IncomingMessage, res: ServerResponse, last: () => Promise<void> | undefined) {
  try {
    last()?.catch((error: unknown) => answerFailure(req, res, error));
  } catch (error) {
    answerFailure(req, res, error);
  }
}

/** Writes `response` once the commits so far (this request's among them) are on disk. */
function respond(
  req: IncomingMessage,
  res: ServerResponse,
  deps: SiteDeps,
  response: Response,
): Promise<void> | undefined {
  if (!deps.isDurable()) return deps.durable().then(() => write(req, res, deps, response));
  return write(req, res, deps, response);
}

function write(
  req: IncomingMessage,
  res: ServerResponse,
  { durable, corsOrigins }: SiteDeps,
  response: Response,
): Promise<void> | undefined {
  const out: Record<string, string[]> = {};
  response.headers.forEach((value, name) => {
    (out[name] ??= []).push(value);
  });
  const setCookie = response.headers.getSetCookie?.();
  if (setCookie?.length) out["set-cookie"] = setCookie;
  limitCors(out, corsOrigins);
  if (res.headersSent) return void response.body?.cancel().catch(() => {});
  leaveUnread(req, res);
  return sendBody(req, res, response, out, durable);
}

/**
 * The request's route, looked up in the router the engine keeps, run with the socket's method, URL,
 * headers and body (none for GET and HEAD) in the action pool.
 */
function runRoute(
  engine: Engine,
  router: HttpRouter,
  url: TargetUrl,
  caller: HttpActionCaller,
  req: IncomingMessage,
  body: RequestBody | null,
  answer: HttpActionAnswer,
): void {
  const method = req.method ?? "GET";
  const found = lookupRoute(router, url.pathname, method);
  if (!found)
    return answer.answered(
      new Response("No matching routes found", {
        status: 404,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      }),
    );
  engine.runHttpAction(
    found,
    { method, url: url.href, pathname: url.pathname, headers: req.rawHeaders, body },
    caller,
    answer,
  );
}

const PENDING = Symbol("pending");
const nextTurn = () => new Promise<typeof PENDING>((resolve) => setImmediate(resolve, PENDING));

/**
 * Writes the response's body as the handler produces it, as Convex streams HTTP action responses. What
 * the body holds already (a string, bytes, a Blob) goes out whole with a Content-Length, in one write
 * with the head (a string or bytes in this same step); a body still being produced (a ReadableStream)
 * goes out chunk by chunk as each one is ready. The last chunk is written once the commits made while
 * streaming are durable.
 */
function sendBody(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  head: Record<string, string[]>,
  durable: () => Promise<void>,
): Promise<void> | undefined {
  const noBody = req.method === "HEAD" || response.status === 204 || response.status === 304;
  const held = LeanResponse.take(response);
  if (held !== null) {
    if (noBody) return sendWhole(res, response.status, head, null);
    if (!(held instanceof Blob)) return sendWhole(res, response.status, head, held);
    return held
      .arrayBuffer()
      .then((bytes) => sendWhole(res, response.status, head, Buffer.from(bytes)));
  }
  if (noBody || !response.body) {
    void response.body?.cancel().catch(() => {});
    res.writeHead(response.status, head);
    res.end();
    return undefined;
  }
  return streamBody(req, res, response.body, response.status, head, durable);
}

/** The head and the whole body (null: a response that has none) in one write. */
function sendWhole(
  res: ServerResponse,
  status: number,
  head: Record<string, string[]>,
  whole: string | Uint8Array | null,
): undefined {
  if (whole !== null && !head["content-length"] && !head["transfer-encoding"])
    head["content-length"] = [String(Buffer.byteLength(whole))];
  res.writeHead(status, head);
  res.end(whole ?? "");
  return undefined;
}

async function streamBody(
  req: IncomingMessage,
  res: ServerResponse,
  body: ReadableStream<Uint8Array>,
  status: number,
  head: Record<string, string[]>,
  durable: () => Promise<void>,
) {
  const reader = body.getReader();
  const ready: Uint8Array[] = [];
  let next = reader.read();
  // What the body produces within this turn of the event loop goes out whole.
  const turn = nextTurn();
  for (;;) {
    const result = await Promise.race([next, turn]);
    if (result === PENDING) break;
    if (result.done) {
      const bytes = Buffer.concat(ready);
      if (!head["content-length"] && !head["transfer-encoding"])
        head["content-length"] = [String(bytes.length)];
      res.writeHead(status, head);
      return void res.end(bytes);
    }
    ready.push(result.value);
    next = reader.read();
  }
  delete head["content-length"];
  res.writeHead(status, head);
  // Node flushes the head with the first chunk; a stream that has produced none yet still shows its head.
  res.flushHeaders();
  const closed = new Promise<void>((resolve) => res.once("close", resolve));
  void closed.then(() => {
    if (!res.writableFinished) void reader.cancel().catch(() => {});
  });
  for (const chunk of ready) res.write(chunk);
  try {
    for (let result = await next; !result.done; result = await reader.read()) {
      if (res.destroyed) return;
      if (!res.write(result.value))
        await Promise.race([new Promise((resolve) => res.once("drain", resolve)), closed]);
    }
  } catch (error) {
    // The head is out: the client sees the body end early, as Convex ends a stream that failed.
    serverError(error, `HTTP action ${req.method} ${req.url} body`);
    return void res.destroy();
  }
  await durable();
  res.end();
}
