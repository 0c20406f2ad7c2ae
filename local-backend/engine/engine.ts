// Runs Convex functions from a convex/ directory through convex/server's entry points, in the engine's
// own transactions (what is still convex-test's: local-backend/README.md), and exposes the commit
// stream, read sets and log lines the server needs.
import { AsyncResource } from "node:async_hooks";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { HttpRouter } from "convex/server";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { deferredAccessor, type TestAccessor } from "./convex-test-internals.ts";
import type { ConvexTestAttachment } from "./convex-test-seams.ts";
import { installConvexGlobal } from "./convex-global.ts";
import { DocumentStore, type Doc, type StashedLevels } from "./document-store.ts";
import {
  canonicalUdfPath,
  checkArguments,
  checkResultJson,
  CONVEX_LIMITS,
  ConvexSystemError,
  decodeConvexErrorData,
  documentError,
  formatDuration,
  type ValidatorJson,
} from "./convex-values.ts";
import {
  currentFrame,
  runInFrame,
  runInFreshFrame,
  type CallContext,
  type RequestKey,
} from "./call-context.ts";
import { documentJson, documentSize } from "./document-json.ts";
import { installTransactionGlobals, transactionGlobals } from "./transaction-globals.ts";
import { buildModuleMap, preloadAll, type Importer, type ModuleMap } from "./modules.ts";
import { blobSha256, type StagedBlob } from "./files.ts";
import { Schema } from "./schema.ts";
import { QueryCache, type Outcome } from "../read-tracking/query-cache.ts";
import type { TableNumbers } from "../durability/table-numbers.ts";
import { ReadSet, type Change } from "./read-set.ts";
import { rangeFilterMatches, type RangeFilter } from "./index-order.ts";
import { queryValue } from "./index-query.ts";
import { newRequestId } from "../http-util.ts";
import { parseAuthConfig, type AuthProvider } from "../auth-config.ts";
import { Deadlines, timed, type Watched } from "./time-limit.ts";
import { vectorSearch, type VectorQuery } from "./vector-search.ts";
import { ActionPool, type ActionHost, type RequestBody } from "./action-pool.ts";
import { FifoLock, SerialTransactions } from "./serial-transactions.ts";
import {
  SCHEDULED_FUNCTIONS,
  Scheduler,
  type ScheduleArgs,
  type ScheduledJob,
} from "./scheduler.ts";
import { TransactionMetrics } from "./transaction-metrics.ts";
import {
  metadataSyscall,
  requestMetadata,
  type FunctionRun,
  type RequestMetadata,
} from "./function-metadata.ts";
import { addressedPath, functionHandleJson, type FunctionAddress } from "./function-address.ts";
import {
  storageMetadataJson,
  TransactionSyscalls,
  type RunUdfArgs,
  type TransactionHost,
  type TransactionStore,
} from "./transaction.ts";

export type FunctionKind = "query" | "mutation" | "action";

/** An identity field that carries why the caller's token was refused (see `refusedIdentity`). */
const TOKEN_REFUSED = "__localBackendTokenRefused";

/** The identity of a caller whose token was refused: functions that read it get `reason` thrown. */
export function refusedIdentity(reason: string): Identity {
  return {
    subject: "",
    issuer: "",
    // Query results are cached per token identifier: callers refused for the same reason share one.
    tokenIdentifier: `refused|${reason}`,
    [TOKEN_REFUSED]: reason,
  };
}
export type Identity = Record<string, unknown> & {
  subject: string;
  issuer: string;
  tokenIdentifier: string;
};

export interface CallOptions {
  identity: Identity | null;
  /** Admin callers (Authorization: Convex <adminKey>) may run internal functions. */
  admin?: boolean;
  readSet?: ReadSet;
  /**
   * A subscribed query's journal (Convex's QueryJournal): the end cursor its `.paginate()` got on its
   * first run, so later runs keep the page's boundaries. null: a first run; undefined: no journal.
   */
  journal?: string | null;
  /** A sync client's (sessionId, requestId): the commit's log record remembers the mutation's result under it. */
  request?: RequestKey;
  /** The scheduled job this call runs (its request metadata's `scheduledFunctionId`). */
  scheduledJob?: string;
}

/** A mutation's outcome as recorded with its commit. */
export interface RecordedRequest extends RequestKey {
  result: JSONValue;
}

export interface CallResult {
  value: Value;
  logLines: string[];
  /** Commit timestamp (ns) of the mutation's transaction. */
  commitTs?: bigint;
  /** The journal for the query's next run: its `.paginate()`'s continueCursor, or null. */
  journal: string | null;
  /** A query's value as JSON text (what `JSON.stringify(value)` gives), when it ran here. */
  valueJson?: string;
}

export class FunctionError extends Error {
  constructor(
    message: string,
    readonly data: Value | undefined,
    readonly logLines: string[],
    /** What the function threw. */
    readonly thrown?: unknown,
  ) {
    super(message);
  }
}

interface Resolved {
  canonical: string;
  kind: FunctionKind;
  isPublic: boolean;
}

export interface Caller {
  identity: Identity | null;
  admin: boolean;
}

export interface EngineHooks {
  /** Called synchronously inside convex-test's top-level commit; `request` when a sync client's mutation commits. */
  onCommit(ts: bigint, changes: Change[], request: RecordedRequest | undefined): void;
  /** Called synchronously when a file's bytes are stored. */
  onFileStored(storageId: string, blob: Blob): void;
  /** Puts a file about to be stored on disk (none: it is kept in memory until onFileStored). */
  stageBlob?(blob: Blob): Promise<StagedBlob>;
  storageUrl(storageId: string): string;
  uploadUrl(): string;
  /** Called when a function run by `call` ends (the log stream `npx convex logs` reads). */
  onExecution?(execution: Execution): void;
  /** Built-in modules (path like `_system/cli/tables` → exports) served beside the deployment's own. */
  systemModules?: Record<string, Record<string, unknown>>;
}

export type HttpIdentity = Record<string, unknown> & { tokenIdentifier: string };

export interface HttpActionCaller {
  identity: HttpIdentity | null;
  /** The token the identity came from (the request metadata's `authToken`). */
  token: string | null;
}

/** An HTTP action's request as the site port received it. */
export interface HttpRequest {
  method: string;
  /** The URL, serialized, and its path. */
  url: string;
  pathname: string;
  /** The socket's raw headers: name, value, name, value… */
  headers: string[];
  /** None for GET and HEAD. */
  body: RequestBody | null;
}

let nextHttpRequest = 0;

/** `1.0/getUserIdentity` of an HTTP action: the caller's identity, or why its token was refused. */
function identityJson(identity: HttpIdentity | null): Promise<string> {
  const refused = identity?.[TOKEN_REFUSED];
  if (typeof refused === "string") return Promise.reject(new Error(refused));
  return Promise.resolve(JSON.stringify(identity));
}

/** Where an HTTP action's outcome goes: called once, with the handler's Response or why it failed. */
export interface HttpActionAnswer {
  answered(response: Response): void;
  failed(error: unknown): void;
}

export interface Execution {
  /** A function's path, or an HTTP action's route (`GET /api/items/*`). */
  udfPath: string;
  kind: FunctionKind | "httpAction";
  /** Unix ms. */
  startedAt: number;
  durationMs: number;
  logLines: string[];
  /** What the function threw, as callers see it; null on success. */
  error: string | null;
  /** An HTTP action's response status. */
  status?: number;
}

/** Function paths whose lookup is remembered: the oldest is forgotten first (a miss costs one lookup). */
export const MAX_RESOLVED = 10_000;

/** HTTP actions running, each until an action's time limit. */
const httpActionDeadlines = new Deadlines();
export function parseUdfPath(udfPath: string): { module: string; name: string; canonical: string } {
  const [rawModule, name = "default"] = udfPath.split(":");
  const module = rawModule.replace(/\.(js|ts)$/, "");
  return { module, name, canonical: `${module}:${name}` };
}

const UDF_TYPE = { query: "Query", mutation: "Mutation", action: "Action" } as const;

/** What `found` is called as `kind`, or Convex's text refusing the call. */
function refusal(
  udfPath: string,
  found: Resolved | null,
  kind: FunctionKind | "any",
  admin: boolean,
): { canonical: string; kind: FunctionKind } | string {
  const canonical = found?.canonical ?? parseUdfPath(udfPath).canonical;
  // As on Convex, a missing and an internal function answer alike: callers cannot probe for internal ones.
  if (!found || (!found.isPublic && !admin))
    return `Could not find public function for '${canonical}'.`;
  const actual = found.kind;
  if (kind !== "any" && actual !== kind)
    return `Trying to execute ${canonicalUdfPath(canonical)} as ${UDF_TYPE[kind]}, but it is defined as ${UDF_TYPE[actual]}.`;
  return { canonical, kind: actual };
}

/** How a function error reaches its caller on a Convex dev deployment: under the request's id. */
const serverErrorText = (message: string) =>
  `[Request ID: ${newRequestId()}] Server Error\n${message}`;

/** Convex keeps a failed job's error as the JsError's text: the message, then the stack frames. */
function jobErrorText(error: unknown): string {
  const { message } = errorMessageOf(error);
  const frames =
    error instanceof Error ? (error.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l)) : [];
  return [message, ...frames].join("\n");
}

function errorMessageOf(error: unknown): { message: string; data: Value | undefined } {
  if (
    error instanceof Error &&
    "data" in error &&
    (error as { data?: unknown }).data !== undefined
  ) {
    const data = (error as { data: Value }).data;
    return {
      message: `Uncaught ConvexError: ${typeof data === "string" ? data : JSON.stringify(convexToJson(data))}`,
      data,
    };
  }
  if (error instanceof ConvexSystemError) return { message: error.message, data: undefined };
  if (!(error instanceof Error)) return { message: `Uncaught ${String(error)}`, data: undefined };
  const name = error.name || "Error";
  return {
    message: error.message ? `Uncaught ${name}: ${error.message}` : `Uncaught ${name}`,
    data: undefined,
  };
}

/**
 * One HTTP action's run: its log context, its deadline (an action's time limit, watched by
 * `httpActionDeadlines`) and its one answer. Methods, not closures: tsx names each arrow function it
 * makes per request, a property write per closure.
 */
class HttpActionRun implements Watched {
  readonly context: CallContext;
  readonly startedAt = Date.now();
  at = 0;
  private running = true;
  /** Aborted past the limit: the action pool stops the handler. */
  private readonly stopper = new AbortController();
  readonly signal = this.stopper.signal;

  constructor(
    route: string,
    private readonly answer: HttpActionAnswer,
    private readonly hooks: EngineHooks,
    private readonly limitMs: number,
  ) {
    this.context = { udfPath: route, logLines: [] };
    httpActionDeadlines.watch(this, limitMs);
  }

  answered(response: Response) {
    if (!this.end(null, response instanceof Response ? response.status : undefined)) return;
    this.answer.answered(response);
  }

  failed(error: unknown) {
    if (!this.end(errorMessageOf(error).message)) return;
    this.answer.failed(error);
  }

  /** Past the limit: Convex's timeout error for the caller, and the handler is stopped. */
  expire() {
    const timedOut = new ConvexSystemError(
      `Function execution timed out (maximum duration: ${formatDuration(this.limitMs)})`,
    );
    if (!this.end(timedOut.message)) return;
    this.answer.failed(timedOut);
    this.stopper.abort(timedOut);
  }

  /** Records the run in the function log; false when it had ended already. */
  private end(error: string | null, status?: number): boolean {
    if (!this.running) return false;
    this.running = false;
    httpActionDeadlines.done(this);
    this.hooks.onExecution?.({
      udfPath: this.context.udfPath,
      kind: "httpAction",
      startedAt: this.startedAt,
      durationMs: Date.now() - this.startedAt,
      logLines: this.context.logLines,
      error,
      status,
    });
    return true;
  }
}

/** Workers of the action pool unless LOCAL_BACKEND_ACTION_WORKERS says otherwise. */
const ACTION_WORKERS = 4;

export class Engine {
  /** Module path without extension (absolute) → loader. */
  private modules = new Map<string, () => Promise<Record<string, unknown>>>();
  /** Module path without extension (absolute) → its file; file → whether it is a "use node" module. */
  private files = new Map<string, string>();
  private nodeModules = new Map<string, boolean>();
  /** Convex's limits on functions (tests may shorten the time limits). */
  limits = { ...CONVEX_LIMITS };
  /** udfPath → what resolve found, for the current modules; clients name paths, so at most MAX_RESOLVED. */
  private resolved = new Map<string, Resolved | null>();
  readonly queries: QueryCache;
  private httpRouterFound: Promise<HttpRouter | null> | undefined;
  private httpRouterLoaded: HttpRouter | null | undefined;
  private authConfig: Promise<AuthProvider[]> | undefined;
  /** Where actions run (engine/action-pool.ts). */
  readonly actions = new ActionPool(
    Number(process.env.LOCAL_BACKEND_ACTION_WORKERS) || ACTION_WORKERS,
  );
  /** Top-level async context: follow-up work started from inside a handler runs here. */
  readonly detached = AsyncResource.bind((fn: () => void) => fn());
  /** Scheduled jobs (engine/scheduler.ts), run as any call is (Engine.call). */
  private readonly scheduler = new Scheduler({
    kind: (name) =>
      this.resolve(name, "any", true).then(
        ({ kind }) => kind,
        () => undefined,
      ),
    write: (write) => this.write(write),
    run: (job) => this.runJob(job),
    detached: (job, fn) =>
      this.detached(() => runInFrame({ call: { udfPath: job.name, logLines: [] } }, fn)),
    errorText: jobErrorText,
  });

  /** convex-test on this engine's store, once a test asks for it (`convexTest`). */
  private convexTestAttached: Promise<ConvexTestAttachment> | undefined;
  private convexTestReady: ConvexTestAttachment | undefined;
  /** The current modules as they were loaded (convex-test is created with them). */
  private moduleMap: ModuleMap = {};

  private constructor(
    /** Where the running modules live: `convex/` sources, or the directory of a CLI push. */
    public convexDir: string,
    readonly database: DocumentStore,
    /** Every query's and mutation's transaction, the engine's and convex-test's runs alike. */
    private readonly transactions: SerialTransactions<StashedLevels>,
    readonly hooks: EngineHooks,
    private readonly tables: TableNumbers,
  ) {
    this.queries = new QueryCache((doc, filter) =>
      rangeFilterMatches(doc, filter as RangeFilter, queryValue),
    );
  }

  /** `tables` numbers the tables in ids: the schema's get theirs here, others when first written. */
  static async create(
    convexDir: string,
    importer: Importer,
    tables: TableNumbers,
    hooks: EngineHooks,
  ): Promise<Engine> {
    const modules = buildModuleMap(convexDir, importer);
    await preloadAll(modules);
    const schema = Schema.fromModule(await loadSchema(convexDir, modules));
    installConvexGlobal();
    installTransactionGlobals();
    const database = new DocumentStore();
    tables.register([...(schema?.tables.keys() ?? [])]);
    database.useSchema(schema);
    database.useTableIds(tables);
    const transactions = new SerialTransactions(database, () => new TransactionMetrics());
    const engine = new Engine(path.resolve(convexDir), database, transactions, hooks, tables);
    engine.useModules(modules);
    database.instrument({
      afterCommit: (commitTs, before) => engine.afterCommit(commitTs, before),
      checkWrite(id, doc) {
        const table = tables.tableOf(id);
        if (table === null || table.startsWith("_")) return;
        const error = documentError(doc as Record<string, Value>);
        if (error) throw new Error(error);
      },
    });
    return engine;
  }

  /**
   * convex-test attached to this engine (engine/convex-test-seams.ts): loaded on first use, by tests and
   * benchmarks only. Its runs read and write this engine's documents in its transactions.
   */
  convexTest(): Promise<ConvexTestAttachment> {
    this.convexTestAttached ??= import("./convex-test-seams.ts")
      .then(({ attachConvexTest }) =>
        attachConvexTest(this, {
          transactions: this.transactions,
          modules: this.moduleMap,
          loadModule: async (modulePath) => {
            const load = this.modules.get(path.join(this.convexDir, modulePath));
            if (!load) throw new Error(`Could not find module for: "${modulePath}"`);
            return await load();
          },
          tableOf: (id) => this.tables.tableOf(id),
        }),
      )
      .then((attached) => (this.convexTestReady = attached));
    return this.convexTestAttached;
  }

  /** convex-test's accessor on this engine (`t.run`, `t.query`, …), loading it on first use. */
  get t(): TestAccessor {
    return deferredAccessor(() => this.convexTest().then(({ t }) => t));
  }

  /** Swaps in freshly imported modules and schema (dev mode, a CLI push from `convexDir`); data is untouched. */
  async reload(importer: Importer, convexDir = this.convexDir): Promise<void> {
    const modules = buildModuleMap(convexDir, importer);
    await preloadAll(modules);
    const schema = Schema.fromModule(await loadSchema(convexDir, modules));
    this.tables.register([...(schema?.tables.keys() ?? [])]);
    this.database.useSchema(schema);
    this.convexDir = path.resolve(convexDir);
    this.useModules(modules);
    this.queries.invalidateAll();
  }

  private useModules(modules: ModuleMap) {
    const root = this.convexDir;
    const byPath = new Map<string, () => Promise<Record<string, unknown>>>();
    this.files.clear();
    this.nodeModules.clear();
    for (const [file, load] of Object.entries(modules)) {
      byPath.set(file.replace(/\.[^./]+$/, ""), load);
      this.files.set(file.replace(/\.[^./]+$/, ""), file);
    }
    for (const [module, exports] of Object.entries(this.hooks.systemModules ?? {}))
      byPath.set(path.join(root, module), () => Promise.resolve(exports));
    this.modules = byPath;
    this.actions.newModules();
    this.resolved.clear();
    this.httpRouterFound = undefined;
    this.httpRouterLoaded = undefined;
    this.authConfig = undefined;
    this.moduleMap = modules;
  }

  dispose() {
    this.scheduler.close();
    this.actions.close();
    this.convexTestReady?.detach();
  }

  /** Loads persisted state (documents, files, id counters, last commit timestamp). */
  restore(state: Parameters<DocumentStore["restore"]>[0] & { ts: bigint }) {
    this.database.restore(state);
    this.transactions.advanceTo(state.ts);
  }

  private afterCommit(commitTs: bigint, before: Map<string, Doc | null>) {
    const call = currentFrame()?.call;
    if (call) call.commitTs = commitTs;
    if (before.size === 0) return;
    const changes: Change[] = [];
    for (const [id, old] of before)
      changes.push({
        id,
        table: this.database.tableOf(id),
        before: old,
        after: this.database.get(id),
      });
    this.queries.invalidate(changes);
    let request: RecordedRequest | undefined;
    if (call?.request && call.rawResult !== undefined) {
      request = { ...call.request, result: JSON.parse(call.rawResult) as JSONValue };
      call.rawResult = undefined;
    }
    this.hooks.onCommit(commitTs, changes, request);
  }

  currentTs(): bigint {
    return this.transactions.lastCommitTs;
  }

  rangeMatches = (doc: Doc, filter: unknown) =>
    rangeFilterMatches(doc, filter as RangeFilter, queryValue);

  /** Checks that `udfPath` names a function of `kind` the caller may run. */
  async resolve(
    udfPath: string,
    kind: FunctionKind | "any",
    admin: boolean,
  ): Promise<{ canonical: string; kind: FunctionKind }> {
    return this.check(
      udfPath,
      this.resolved.get(udfPath) ?? (await this.find(udfPath)),
      kind,
      admin,
    );
  }

  /** What `udfPath` names in the current modules (null: no function), remembered until they change. */
  private async find(udfPath: string): Promise<Resolved | null> {
    const { module, name, canonical } = parseUdfPath(udfPath);
    const fn = (await this.moduleExports(module))?.[name] as
      | { isQuery?: boolean; isMutation?: boolean; isAction?: boolean; isPublic?: boolean }
      | undefined;
    const found: Resolved | null =
      fn && (fn.isQuery || fn.isMutation || fn.isAction)
        ? {
            canonical,
            kind: fn.isQuery ? "query" : fn.isMutation ? "mutation" : "action",
            isPublic: fn.isPublic === true,
          }
        : null;
    if (this.resolved.size >= MAX_RESOLVED)
      this.resolved.delete(this.resolved.keys().next().value as string);
    this.resolved.set(udfPath, found);
    return found;
  }

  private check(
    udfPath: string,
    found: Resolved | null,
    kind: FunctionKind | "any",
    admin: boolean,
  ): { canonical: string; kind: FunctionKind } {
    const checked = refusal(udfPath, found, kind, admin);
    if (typeof checked === "string")
      throw new FunctionError(serverErrorText(checked), undefined, []);
    return checked;
  }

  /** Function paths whose lookup is remembered (for tests). */
  get resolvedPaths(): number {
    return this.resolved.size;
  }

  /**
   * Runs a named action as Convex does: its arguments checked against `exportArgs()`, then its own
   * `invokeAction` in the action pool, its JSON result checked against `exportReturns()`. Its syscalls
   * are answered in a frame of its own as `identity`'s (`actionHost`). A top-level action has Convex's
   * time limit (10 minutes in a "use node" module, 30 in Convex's runtime), counted from when a worker
   * takes it: past it the worker is terminated. An action it calls with ctx.runAction runs on the same
   * worker, with its caller's request metadata. Returns the JSON result.
   */
  private async runAction(
    canonical: string,
    args: Record<string, Value>,
    identity: Identity | null,
    request: RequestMetadata,
  ): Promise<string> {
    const { module, name } = parseUdfPath(canonical);
    const { validators } = await this.registered(canonical);
    const tableOf = (id: string) => this.tables.tableOf(id);
    checkArguments(validators.args, args, canonical, tableOf);
    const file = this.files.get(path.join(this.convexDir, module));
    if (file === undefined) throw new Error(`${canonical} is not an action of a module file`);
    // the caller's frame (its log context): the action's syscalls are answered in it
    const here: <T>(fn: () => T) => T = AsyncResource.bind(<T>(fn: () => T): T => fn());
    const host = this.actionHost(
      here,
      identity,
      () => identityJson(identity),
      (level, line) => here(() => console[level]("%s", line)),
      { udfPath: canonical, udfType: "action", request },
    );
    const call = {
      file,
      name,
      requestId: request.requestId,
      args: JSON.stringify(convexToJson([args])),
      host,
    };
    const worker = currentFrame()?.actionWorker;
    const limit = this.isNodeModule(module) ? this.limits.nodeActionMs : this.limits.actionMs;
    let raw: string;
    try {
      raw = await (worker !== undefined
        ? this.actions.runNested(worker, call)
        : this.actions.run(call, {
            ms: limit,
            error: () =>
              new ConvexSystemError(
                `Function execution timed out (maximum duration: ${formatDuration(limit)})`,
              ),
          }));
    } catch (error) {
      throw decodeConvexErrorData(error);
    }
    checkResultJson(validators.returns, JSON.parse(raw) as JSONValue, raw, canonical, tableOf);
    return raw;
  }

  /** Whether the module starts with the "use node" directive (it runs in Convex's Node.js runtime). */
  private isNodeModule(module: string): boolean {
    const file = this.files.get(path.join(this.convexDir, module));
    if (file === undefined) return false;
    let node = this.nodeModules.get(file);
    if (node === undefined) {
      node = /^(\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/))*\s*["']use node["']/.test(
        readFileSync(file, "utf8"),
      );
      this.nodeModules.set(file, node);
    }
    return node;
  }

  async exists(udfPath: string): Promise<boolean> {
    try {
      await this.resolve(udfPath, "any", true);
      return true;
    } catch {
      return false;
    }
  }

  /** The providers of the app's `auth.config.ts` (none without one), read once per generation of modules. */
  authProviders(): Promise<AuthProvider[]> {
    this.authConfig ??= this.moduleExports("auth.config").then((exports) =>
      parseAuthConfig(exports?.default),
    );
    return this.authConfig;
  }

  /** The app's `http.ts` router (null without one), read once per generation of modules. */
  httpRouter(): Promise<HttpRouter | null> {
    if (this.httpRouterFound) return this.httpRouterFound;
    const found = this.moduleExports("http").then((exports) => {
      const router = exports?.default as Partial<HttpRouter> | undefined;
      const loaded = router?.isRouter === true ? (router as HttpRouter) : null;
      if (this.httpRouterFound === found) this.httpRouterLoaded = loaded;
      return loaded;
    });
    this.httpRouterFound = found;
    return found;
  }

  /** What `httpRouter()` resolved to for the current modules, without waiting; undefined until then. */
  loadedHttpRouter(): HttpRouter | null | undefined {
    return this.httpRouterLoaded;
  }

  /** The module's exports, or undefined when the module does not exist. */
  async moduleExports(module: string): Promise<Record<string, unknown> | undefined> {
    return await this.modules.get(path.join(this.convexDir, module))?.();
  }

  async call(
    kind: FunctionKind | "any",
    udfPath: string,
    jsonArgs: unknown,
    options: CallOptions,
  ): Promise<CallResult> {
    const { canonical, kind: actual } = await this.resolve(udfPath, kind, options.admin ?? false);
    const journal =
      actual === "query" && options.journal !== undefined
        ? { previous: options.journal, next: null }
        : undefined;
    const context: CallContext = {
      udfPath: canonical,
      logLines: [],
      request: actual === "mutation" ? options.request : undefined,
      journal,
    };
    const invoke =
      actual === "action"
        ? (args: Record<string, Value>) =>
            runInFrame({ call: context }, () =>
              this.runAction(
                canonical,
                args,
                options.identity,
                requestMetadata(options.scheduledJob ?? null),
              ),
            ).then((raw) => {
              context.result = JSON.parse(raw) as JSONValue;
            })
        : (args: Record<string, Value>) => this.invoke(actual, canonical, args, context, options);
    const startedAt = Date.now();
    const ended = (error: string | null) =>
      this.hooks.onExecution?.({
        udfPath: canonical,
        kind: actual,
        startedAt,
        durationMs: Date.now() - startedAt,
        logLines: context.logLines,
        error,
      });
    try {
      await invoke(decodeArgs(canonical, jsonArgs));
      ended(null);
      return {
        value: context.result ?? null,
        logLines: context.logLines,
        commitTs: context.commitTs,
        journal: journal?.next ?? null,
        valueJson: context.resultText,
      };
    } catch (error) {
      const { message, data } = errorMessageOf(error);
      ended(message);
      throw new FunctionError(
        serverErrorText(message),
        data === undefined ? undefined : convexToJson(data),
        context.logLines,
        error,
      );
    }
  }

  /**
   * Runs a query or mutation through convex/server's own entry point (`invokeQuery` /
   * `invokeMutation`) in one transaction of the deployment (engine/serial-transactions.ts: the lock,
   * levels and commit), its syscalls answered by engine/transaction.ts. Convex's checks around the call as
   * Convex's backend makes them: arguments before, the time limit, the result (shape, size, `returns`)
   * before a mutation commits. Leaves the JSON result in `context.result`.
   */
  private async invoke(
    kind: "query" | "mutation",
    canonical: string,
    args: Record<string, Value>,
    context: CallContext,
    options: CallOptions,
  ): Promise<void> {
    const { func, validators } = await this.registered(canonical);
    const tableOf = (id: string) => this.tables.tableOf(id);
    checkArguments(validators.args, args, canonical, tableOf);
    const argsJson = JSON.stringify(convexToJson([args]));
    const identity = options.identity;
    const request = requestMetadata(options.scheduledJob ?? null);
    const syscalls = new TransactionSyscalls(
      this.transactionHost,
      () => {
        const refused = identity?.[TOKEN_REFUSED];
        if (typeof refused === "string") throw new Error(refused);
        return identity;
      },
      options.readSet,
      context.journal,
      { udfPath: canonical, udfType: kind, request },
    );
    const transactions = this.transactions;
    await runInFrame(
      {
        call: context,
        readSet: options.readSet,
        transaction: syscalls,
        nestedLock: new FifoLock(),
      },
      async () => {
        await transactions.begin(false);
        let open = true;
        try {
          const limit = this.limits.queryMutationMs;
          // fetch, timers, … are refused in the handler only: I/O the commit starts (the log's
          // writes) carries this async context, and its callbacks may use them
          const raw = await timed(limit, () =>
            runInFrame({ globals: transactionGlobals() }, () =>
              kind === "query" ? func.invokeQuery!(argsJson) : func.invokeMutation!(argsJson),
            ),
          );
          const result = JSON.parse(raw) as JSONValue;
          checkResultJson(validators.returns, result, raw, canonical, tableOf);
          if (kind === "mutation") {
            if (context.request) context.rawResult = raw;
            // as Convex does, a mutation job's success commits with the mutation's writes
            if (options.scheduledJob !== undefined)
              this.scheduler.complete(this.transactionHost.store, options.scheduledJob, {
                kind: "success",
              });
            open = false;
            // nothing the commit starts answers to this function's syscalls
            runInFrame({ transaction: undefined }, () => transactions.commit(false));
          }
          context.result = result;
          if (kind === "query") context.resultText = raw;
        } catch (error) {
          throw decodeConvexErrorData(error);
        } finally {
          if (open) transactions.rollback(false);
        }
      },
    );
  }

  /** The registered query or mutation at a canonical path, with its validators. */
  private async registered(canonical: string) {
    const { module, name } = parseUdfPath(canonical);
    const func = (await this.moduleExports(module))?.[name] as RegisteredFunction;
    return { func, validators: validatorsOf(func, module, name) };
  }

  /**
   * `1.0/runUdf`: `ctx.runQuery` / `ctx.runMutation` of a query or mutation (`caller`), by name, internal
   * functions included. Its arguments are checked as at the top level, then it runs in a nested level of
   * the caller's transaction: it sees the caller's writes; a mutation's writes merge into the caller's
   * level when it returns, a throw (its result refused by `returns` included) drops its level only, and a
   * query's level is always dropped (`snapshotQuery`, `useStaleSnapshot`, sees none of the pending writes).
   * Its reads join the caller's read set and metrics (`transactionLimits` lowers its own budget). The
   * caller's nested calls run one at a time (a FifoLock in the frame), not timed apart.
   */
  private async runUdf(
    caller: TransactionSyscalls,
    call: RunUdfArgs & { name: string },
  ): Promise<string> {
    const transactions = this.transactions;
    const kind = call.udfType === "mutation" ? "mutation" : "query";
    const lock = currentFrame()!.nestedLock!;
    await lock.acquire();
    try {
      const checked = refusal(
        call.name,
        this.resolved.get(call.name) ?? (await this.find(call.name)),
        kind,
        true,
      );
      if (typeof checked === "string") throw new Error(checked);
      const { canonical } = checked;
      const { func, validators } = await this.registered(canonical);
      const tableOf = (id: string) => this.tables.tableOf(id);
      checkArguments(
        validators.args,
        jsonToConvex(call.args) as Record<string, Value>,
        canonical,
        tableOf,
      );
      const argsJson = `[${JSON.stringify(call.args)}]`;
      const stashed = call.udfType === "snapshotQuery" ? transactions.stashWrites() : undefined;
      try {
        return await runInFrame(
          { transaction: caller.nested(canonical, kind), nestedLock: new FifoLock() },
          async () => {
            await transactions.begin(true, call.transactionLimits);
            let open = true;
            try {
              const raw =
                kind === "query"
                  ? await func.invokeQuery!(argsJson)
                  : await func.invokeMutation!(argsJson);
              checkResultJson(
                validators.returns,
                JSON.parse(raw) as JSONValue,
                raw,
                canonical,
                tableOf,
              );
              if (kind === "mutation") {
                open = false;
                transactions.commit(true);
              }
              return raw;
            } finally {
              if (open) transactions.rollback(true);
            }
          },
        );
      } finally {
        if (stashed !== undefined) transactions.restoreWrites(stashed);
      }
    } catch (error) {
      throw syscallError(error);
    } finally {
      lock.release();
    }
  }

  /** What a transaction's syscalls read and write (engine/transaction.ts). */
  private get transactionHost(): TransactionHost {
    const database = this.database;
    return (this.transactionHostOf ??= {
      store: database.transactionStore(),
      tracker: () => this.transactions.getMetricsTracker(),
      snapshotTs: () => this.transactions.getSnapshotTs(),
      tableOf: (id) => this.tables.tableOf(id),
      checkGet: (args) => database.checkGet(args),
      docJson: documentJson,
      docSize: documentSize,
      storageUrl: (storageId) => this.hooks.storageUrl(storageId),
      uploadUrl: () => this.hooks.uploadUrl(),
      scheduler: this.scheduler,
      runUdf: (caller, call) => this.runUdf(caller, call),
    });
  }

  private transactionHostOf: TransactionHost | undefined;

  /**
   * A query's outcome for `caller`, from the query cache while nothing it read has changed. Synchronous up
   * to the cache once the function is known: a flush evaluates it for every subscriber of a changed query.
   */
  query(
    udfPath: string,
    jsonArgs: JSONValue,
    caller: Caller,
    journal: string | null = null,
  ): Promise<Outcome> {
    const found = this.resolved.get(udfPath);
    if (found === undefined)
      return this.find(udfPath).then(
        () => this.query(udfPath, jsonArgs, caller, journal),
        failedOutcome,
      );
    let canonical: string;
    try {
      ({ canonical } = this.check(udfPath, found, "query", caller.admin));
    } catch (error) {
      return Promise.resolve(failedOutcome(error));
    }
    return this.cachedQuery(canonical, (jsonArgs ?? {}) as JSONValue, caller.identity, journal);
  }

  /**
   * What `query` would answer from a finished cached run, without waiting; undefined when it would run
   * or fail. `key` is the cache key `query` would use (QueryCache.key of the canonical path, arguments
   * and journal): a subscription keeps it.
   */
  finishedQuery(udfPath: string, key: string, caller: Caller): Outcome | undefined {
    const found = this.resolved.get(udfPath);
    if (found === undefined) return undefined;
    if (!found || (!found.isPublic && !caller.admin) || found.kind !== "query") return undefined;
    return this.queries.peek(key, caller.identity?.tokenIdentifier ?? null);
  }

  /**
   * Runs the HTTP action of the route the router looked up (`router.lookup(…)`: handler, method, route
   * path) for `request` in the action pool, as Convex runs it apart from the main loop: the worker looks
   * the route up in its own copy of the router and calls the handler's `invokeHttpAction`, whose
   * syscalls are answered here as `caller`'s. Answers its outcome once: the handler's Response, what it
   * threw, or Convex's timeout error once it has run past an action's limit (its code is then stopped).
   * The run goes to the function log under its route (`GET /api/items/*`), as on Convex.
   */
  runHttpAction(
    [, method, routePath]: readonly [unknown, string, string],
    request: HttpRequest,
    { identity, token }: HttpActionCaller,
    answer: HttpActionAnswer,
  ): void {
    const run = new HttpActionRun(
      `${method} ${routePath}`,
      answer,
      this.hooks,
      this.limits.actionMs,
    );
    const file = this.files.get(path.join(this.convexDir, "http"));
    if (file === undefined) return run.failed(new Error("The deployment has no http module"));
    const metadata: RequestMetadata = {
      ip: null,
      userAgent: null,
      requestId: `http-request-${nextHttpRequest++}`,
      scheduledFunctionId: null,
      authToken: token,
    };
    // A fresh frame holding the run's log context only (nothing of the caller's leaks in), bound to every answer.
    const here: <T>(fn: () => T) => T = runInFreshFrame({ call: run.context }, () =>
      AsyncResource.bind(<T>(fn: () => T): T => fn()),
    );
    const host = this.actionHost(
      here,
      identity as Identity | null,
      () => identityJson(identity),
      // formatted in the worker already: a single argument is printed as it is
      (level, line) => here(() => console[level](line)),
      { udfPath: "http", udfType: "http", request: metadata },
    );
    this.actions.runHttp({ ...request, file, host, signal: run.signal }).then(
      (response) => run.answered(response),
      (error: unknown) => run.failed(error),
    );
  }

  /**
   * What a pooled or HTTP action's worker asks the main thread, answered in the action's frame
   * (`here`) as `identity`: its identity, nested queries, mutations and actions, its metadata, the rest
   * of its syscalls, its files and its log lines.
   */
  private actionHost(
    here: <T>(fn: () => T) => T,
    identity: Identity | null,
    identityJson: () => Promise<string>,
    log: ActionHost["log"],
    run: FunctionRun,
  ): ActionHost {
    return {
      asyncSyscall: (op, json, worker) =>
        here(() =>
          runInFrame({ actionWorker: worker }, async () => {
            switch (op) {
              case "1.0/getUserIdentity":
                return identityJson();
              case "1.0/actions/query":
              case "1.0/actions/mutation":
              case "1.0/actions/action":
                return this.actionCallJson(op, json, identity, run.request);
            }
            return this.actionSyscall(op, json, run);
          }),
        ),
      storeBlob: (blob) => here(() => this.storeBlob(blob)),
      getBlob: (storageId) => here(() => Promise.resolve(this.getFile(storageId))),
      log,
    };
  }

  /**
   * The rest of an action's syscalls: function handles, metadata, the scheduler's, vector search and
   * storage (each write in a transaction of its own, a read of the committed documents).
   */
  private async actionSyscall(op: string, json: string, run: FunctionRun): Promise<string> {
    switch (op) {
      case "1.0/createFunctionHandle":
        return functionHandleJson(json);
      case "1.0/actions/schedule":
      case "1.0/actions/cancel_job":
        return (await this.schedulerSyscall(op, json))!;
      case "1.0/actions/vectorSearch": {
        const { query } = JSON.parse(json) as { query: VectorQuery };
        return JSON.stringify({ results: this.vectorSearch(query) });
      }
      case "1.0/storageGetUrl": {
        const { storageId } = JSON.parse(json) as { storageId: string };
        const exists =
          this.database.tableOf(storageId) === "_storage" && this.database.get(storageId) !== null;
        return JSON.stringify(exists ? this.hooks.storageUrl(storageId) : null);
      }
      case "1.0/storageGenerateUploadUrl":
        return JSON.stringify(this.hooks.uploadUrl());
      case "1.0/storageDelete":
        await this.deleteFile((JSON.parse(json) as { storageId: string }).storageId);
        return "{}";
      case "1.0/storageGetMetadata":
        return storageMetadataJson(
          json,
          (id) => this.database.tableOf(id),
          (storageId) => {
            const doc = this.database.get(storageId);
            return doc === null ? "null" : documentJson(doc);
          },
        );
    }
    const answer = metadataSyscall(op, run);
    if (answer === undefined) throw new Error(`Unknown async operation ${op}`);
    return answer;
  }

  /**
   * An action's ctx.runQuery / ctx.runMutation / ctx.runAction by name, its result as the JSON text the
   * syscall answers. A query runs through the query cache; a mutation in a transaction of its own, as the
   * engine runs any mutation (Engine.invoke), its log lines the action's; an action on the caller's
   * worker (Engine.runAction) with the caller's `request` metadata. A root function handle names the
   * function as its path does.
   */
  private async actionCallJson(
    op: "1.0/actions/query" | "1.0/actions/mutation" | "1.0/actions/action",
    json: string,
    identity: Identity | null,
    request: RequestMetadata,
  ): Promise<string> {
    const address = JSON.parse(json) as FunctionAddress & { args?: JSONValue };
    const name = addressedPath(address);
    const args = address.args;
    if (op === "1.0/actions/action") {
      const { canonical } = await this.resolve(name, "action", true);
      return this.runAction(canonical, decodeArgs(canonical, args), identity, request);
    }
    if (op === "1.0/actions/query") {
      const { canonical } = await this.resolve(name, "query", true);
      const outcome = await this.cachedQuery(canonical, args ?? {}, identity);
      if (outcome.ok) return JSON.stringify(outcome.value);
      throw outcome.error;
    }
    const { canonical } = await this.resolve(name, "mutation", true);
    const action = currentFrame()?.call;
    const context: CallContext = {
      udfPath: action?.udfPath ?? canonical,
      logLines: action?.logLines ?? [],
    };
    const options = { identity, admin: true };
    await this.invoke("mutation", canonical, decodeArgs(canonical, args), context, options);
    return JSON.stringify(context.result ?? null);
  }

  private cachedQuery(
    canonical: string,
    args: JSONValue,
    identity: Identity | null,
    journal: string | null = null,
  ): Promise<Outcome> {
    return this.queries.get(
      QueryCache.key(canonical, args, journal),
      identity?.tokenIdentifier ?? null,
      (readSet) =>
        this.call("query", canonical, args, { identity, admin: true, readSet, journal }).then(
          (result): Outcome => ({
            ok: true,
            value: result.value as JSONValue,
            valueJson: result.valueJson,
            logLines: result.logLines,
            journal: result.journal,
          }),
          (error) => failedOutcome(error, journal),
        ),
      // The run that fixed a page's end cursor is also the answer for that journal (same snapshot).
      (outcome) =>
        outcome.journal !== journal ? QueryCache.key(canonical, args, outcome.journal) : null,
    );
  }

  /** `ctx.vectorSearch` (engine/vector-search.ts) over the committed documents of the index's table. */
  vectorSearch(query: VectorQuery): { _id: string; _score: number }[] {
    const [table, indexName] = query.indexName.split(".");
    const index = this.database.vectorIndex(table, indexName);
    if (!index)
      throw new Error(
        `Cannot use vector index "${indexName}" for table "${table}" because it is not declared in the schema.`,
      );
    return vectorSearch([...this.database.tableDocuments(table)], index, query);
  }

  /**
   * `ctx.storage.store` (an upload too): the bytes staged on disk with their sha256 read on the way
   * (`hooks.stageBlob`), the `_storage` document written, then the bytes kept under its id. Returns
   * the storage id.
   */
  async storeBlob(blob: Blob): Promise<string> {
    const stage = this.hooks.stageBlob;
    // fs may set timers, which a handler may not: the file is written outside the caller's context
    const staged =
      stage &&
      (await new Promise<StagedBlob>((resolve, reject) =>
        this.detached(() => void stage(blob).then(resolve, reject)),
      ));
    const stored = staged?.blob ?? blob;
    let storageId: string;
    try {
      const sha256 = staged?.sha256 ?? (await blobSha256(stored));
      storageId = await this.write((store) =>
        store.insert("_storage", { size: stored.size, sha256 }),
      );
    } catch (error) {
      staged?.discard();
      throw error;
    }
    this.database.putFile(storageId, stored);
    this.hooks.onFileStored(storageId, stored);
    return storageId;
  }

  /** `ctx.storage.get`: a stored file's bytes, or null. */
  getFile(storageId: string): Blob | null {
    this.database.checkId("_storage", storageId);
    return this.database.file(storageId) ?? null;
  }

  /** An action's `ctx.storage.delete`: its `_storage` document goes (the bytes once that commits). */
  async deleteFile(storageId: string): Promise<void> {
    await this.write((store) => store.delete("_storage", storageId));
  }

  /**
   * Runs `body` in a transaction of its own (the engine's own writes: an action's storage call, a
   * snapshot import), committed when it returns and rolled back when it throws. A storage write it
   * makes (`storeBlob`) joins it.
   */
  async transact<T>(body: (store: TransactionStore) => T | Promise<T>): Promise<T> {
    const store = this.database.transactionStore();
    await this.transactions.begin(false);
    let open = true;
    try {
      const result = await runInFrame({ writing: store }, () => body(store));
      open = false;
      this.transactions.commit(false);
      return result;
    } finally {
      if (open) this.transactions.rollback(false);
    }
  }

  /**
   * A write of a storage call in a transaction of its own; inside one already (Engine.transact, or
   * convex-test's runs: t.run hands its ctx an action's storage) in that one.
   */
  private write<T>(write: (store: TransactionStore) => T): Promise<T> {
    const store = this.database.transactionStore();
    if (currentFrame()?.writing !== undefined || this.convexTestReady?.inTransaction())
      return Promise.resolve(write(store));
    return this.transact(write);
  }

  /**
   * `ctx.scheduler`'s syscalls of a function convex-test runs (inside its transaction) and of an action
   * (in a transaction of their own); undefined for any other, or a component's reference.
   */
  schedulerSyscall(op: string, json: string): Promise<string | undefined> | undefined {
    const schedule = (store: TransactionStore) =>
      this.scheduler.schedule(
        store,
        this.transactions.getMetricsTracker(),
        JSON.parse(json) as ScheduleArgs,
      );
    const cancel = (store: TransactionStore) => {
      this.scheduler.cancel(store, (JSON.parse(json) as { id: string }).id);
      return "{}";
    };
    switch (op) {
      case "1.0/schedule":
      case "1.0/actions/schedule":
        return this.write(schedule);
      case "1.0/cancel_job":
      case "1.0/actions/cancel_job":
        return this.write(cancel);
    }
    return undefined;
  }

  /** A due scheduled job's run (engine/scheduler.ts): what its function threw, as it threw it. */
  private async runJob(job: ScheduledJob): Promise<void> {
    const options = { identity: null, admin: true, scheduledJob: job._id };
    try {
      await this.call("any", job.name, convexToJson(job.args[0] ?? {}), options);
    } catch (error) {
      throw error instanceof FunctionError && error.thrown !== undefined ? error.thrown : error;
    }
  }

  /**
   * Re-arms timers for scheduled functions that were pending when the data was persisted; those that
   * were running fail with Convex's "Transient error while executing action" (never run twice).
   */
  rearmScheduled(): Promise<void> {
    return this.scheduler.restore([...this.database.tableDocuments(SCHEDULED_FUNCTIONS)]);
  }
}

/** A registered query or mutation (convex/server's registration_impl). */
interface RegisteredFunction {
  invokeQuery?: (argsJson: string) => Promise<string>;
  invokeMutation?: (argsJson: string) => Promise<string>;
  exportArgs(): string;
  exportReturns(): string;
}

const validatorCache = new WeakMap<
  RegisteredFunction,
  { args: ValidatorJson; returns: ValidatorJson | null }
>();

/** A function's `args` and `returns` validators as JSON, read once per function. */
function validatorsOf(
  func: RegisteredFunction,
  module: string,
  name: string,
): { args: ValidatorJson; returns: ValidatorJson | null } {
  let validators = validatorCache.get(func);
  if (validators === undefined) {
    const args = JSON.parse(func.exportArgs()) as ValidatorJson;
    // The backend refuses such a function when it is pushed.
    if (args.type !== "object" && args.type !== "any")
      throw new Error(
        `Invalid JSON returned from ${module}.js:${name}.exportArgs(): Args validator must be an object or any`,
      );
    validators = { args, returns: JSON.parse(func.exportReturns()) as ValidatorJson | null };
    validatorCache.set(func, validators);
  }
  return validators;
}

/**
 * The arguments as Convex values. A malformed encoding (`{"$integer": "x"}`) is the caller's error, framed
 * and logged as any other failed call: Convex's `parse_udf_args` (crates/udf/src/helpers.rs) makes it a
 * JsError `Invalid arguments for <module>.js:<name>: …` (the reason here is convex/values' text, not Rust's).
 */
function decodeArgs(canonical: string, jsonArgs: unknown): Record<string, Value> {
  try {
    return jsonToConvex((jsonArgs ?? {}) as never) as Record<string, Value>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConvexSystemError(`Invalid arguments for ${canonicalUdfPath(canonical)}: ${reason}`);
  }
}

/**
 * A nested function's error as its caller's `performAsyncSyscall` reads it (message, and `data` as JSON):
 * a ConvexError's data, which convex/server serialised to text, is parsed back.
 */
function syscallError(error: unknown): unknown {
  const data = (error as { data?: unknown } | null)?.data;
  if (
    !(error instanceof Error) ||
    !(Symbol.for("ConvexError") in error) ||
    typeof data !== "string"
  )
    return error;
  return Object.assign(new Error(error.message), { data: JSON.parse(data) as JSONValue });
}

function failedOutcome(error: unknown, journal: string | null = null): Outcome {
  const e =
    error instanceof FunctionError ? error : new FunctionError(String(error), undefined, [], error);
  return {
    ok: false,
    message: e.message,
    data: e.data as JSONValue | undefined,
    logLines: e.logLines,
    error: e.thrown ?? e,
    journal,
  };
}

async function loadSchema(convexDir: string, modules: ModuleMap): Promise<unknown> {
  const base = path.join(path.resolve(convexDir), "schema");
  const file = Object.keys(modules).find((f) => f.replace(/\.[^./]+$/, "") === base);
  if (!file || !existsSync(file)) return undefined;
  return (await modules[file]()).default;
}
