// An HTTP action's run, as Convex's own invokeHttpAction (convex/server registration_impl.js) sets it
// up: a ctx of runQuery, runMutation, runAction, auth, storage, scheduler, vectorSearch and meta, and
// the handler called with it and the Request. What convex-test's fetch adds around that per request (an
// httpActionGeneric made per call, four context runs that each copy the async-context frame, a spread
// copy of the ctx, a query hook that looks the caller up again) is left out: the handler runs in one
// frame built whole (`localBackendInHttpAction`), and ctx.runQuery and ctx.auth answer directly.
import type { Value } from "convex/values";
import type {
  ContextSlot,
  ConvexGlobal,
  ConvexTestInternals,
  RequestMetadata,
  TestAccessor,
} from "./convex-test-internals.ts";

/** What the engine gives an HTTP action run. */
export interface HttpActionHost<C> {
  internals: ConvexTestInternals;
  global: ConvexGlobal;
  /** The engine's log context: the console hook files the handler's lines under it. */
  logSlot: ContextSlot<C>;
  /** convex-test's accessor for a caller (ctx.runMutation and ctx.runAction go through it). */
  accessor(identity: HttpIdentity | null): TestAccessor;
  /** ctx.runQuery: a query of its own, through the query cache; undefined for a function handle. */
  runQuery(
    reference: unknown,
    args: unknown,
    identity: HttpIdentity | null,
  ): Promise<Value> | undefined;
  /** The identity as functions see it, or why the caller's token was refused (thrown when read). */
  identityOf(identity: HttpIdentity | null): Promise<HttpIdentity | null>;
}

export type HttpIdentity = Record<string, unknown> & { tokenIdentifier: string };

export interface HttpActionCaller {
  identity: HttpIdentity | null;
  /** The token the identity came from (the request metadata's `authToken`). */
  token: string | null;
}

let nextRequest = 0;

/** Runs the route's HTTP action (`router.lookup(…)[0]`) with `request`; rejects with what it threw. */
export function runHttpAction<C>(
  host: HttpActionHost<C>,
  action: unknown,
  request: Request,
  { identity, token }: HttpActionCaller,
  log: C,
): Promise<Response> {
  const handler = handlerOf(action);
  const {
    setupStorageActionWriter,
    setupActionScheduler,
    setupActionVectorSearch,
    setupActionMeta,
  } = host.internals.localBackendActionCtx;
  // Convex's requestId for HTTP actions is "" (registration_impl.js invokeHttpAction).
  const requestId = "";
  let accessor: TestAccessor | undefined;
  // Methods, not arrow functions: tsx names every arrow function it makes, a property write per closure.
  const ctx = {
    runQuery(query: unknown, args?: unknown) {
      return (
        host.runQuery(query, args, identity) ??
        (accessor ??= host.accessor(identity)).query(query, args)
      );
    },
    runMutation(mutation: unknown, args?: unknown) {
      return (accessor ??= host.accessor(identity)).mutation(mutation, args);
    },
    runAction(action: unknown, args?: unknown) {
      return (accessor ??= host.accessor(identity)).action(action, args);
    },
    auth: {
      getUserIdentity() {
        return host.identityOf(identity);
      },
    },
    storage: setupStorageActionWriter(requestId),
    scheduler: setupActionScheduler(requestId),
    vectorSearch: setupActionVectorSearch(requestId),
    meta: setupActionMeta("public"),
  };
  const metadata: RequestMetadata = {
    ip: null,
    userAgent: null,
    requestId: `http-request-${nextRequest++}`,
    scheduledFunctionId: null,
    authToken: token,
  };
  // As invokeFunction calls it, without an async function of its own around (a promise less).
  return host.internals.localBackendInHttpAction(
    host.global,
    metadata,
    () => {
      try {
        return Promise.resolve(handler(ctx, request) as Response | Promise<Response>);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    host.logSlot,
    log,
  );
}

/** The handler an httpAction wraps (convex-test's getHandler). */
function handlerOf(action: unknown): (ctx: unknown, request: Request) => unknown {
  const wrapped = action as { _handler?: (ctx: unknown, request: Request) => unknown };
  return typeof wrapped._handler === "function"
    ? wrapped._handler
    : (action as (ctx: unknown, request: Request) => unknown);
}
