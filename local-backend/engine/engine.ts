// Runs Convex functions from a convex/ directory on convex-test's engine, and exposes
// the commit stream, read sets and log lines the server needs.
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { existsSync } from "node:fs";
import path from "node:path";
import { format } from "node:util";
import { convexToJson, jsonToConvex, type Value } from "convex/values";
import {
  loadConvexTestInternals,
  type ConvexGlobal,
  type ConvexTestInternals,
  type DatabaseFake,
  type Doc,
  type TestAccessor,
} from "./convex-test-internals.ts";
import { buildModuleMap, preloadAll, type Importer, type ModuleMap } from "./modules.ts";
import { ReadSet, type Change } from "./read-set.ts";
import { TableIndex, type QuerySource } from "./table-index.ts";

export type FunctionKind = "query" | "mutation" | "action";
export type Identity = Record<string, unknown> & { subject: string; issuer: string; tokenIdentifier: string };

export interface CallOptions {
  identity: Identity | null;
  /** Admin callers (Authorization: Convex <adminKey>) may run internal functions. */
  admin?: boolean;
  readSet?: ReadSet;
}

export interface CallResult {
  value: Value;
  logLines: string[];
  /** Commit timestamp (ns) of the mutation's transaction. */
  commitTs?: bigint;
}

export class FunctionError extends Error {
  constructor(
    message: string,
    readonly data: Value | undefined,
    readonly logLines: string[],
  ) {
    super(message);
  }
}

export interface EngineHooks {
  /** Called synchronously inside convex-test's top-level commit. */
  onCommit(ts: bigint, changes: Change[]): void;
  /** Called synchronously when a file's bytes are stored. */
  onFileStored(storageId: string, blob: Blob): void;
  storageUrl(storageId: string): string;
  uploadUrl(): string;
}

interface CallContext {
  udfPath: string;
  logLines: string[];
  commitTs?: bigint;
}

const callStorage = new AsyncLocalStorage<CallContext>();
const readSetStorage = new AsyncLocalStorage<ReadSet>();
const engines = new Map<ConvexGlobal, Engine>();
let processSeamsInstalled = false;

function installProcessSeams(internals: ConvexTestInternals) {
  if (processSeamsInstalled) return;
  processSeamsInstalled = true;
  const g = globalThis as unknown as { Convex: ConvexGlobal };
  const original = g.Convex;
  const engineFor = () => {
    const store = internals.convexGlobalStorage.getStore();
    return store ? engines.get(store) : undefined;
  };
  const syscall = (op: string, json: string) => {
    const readSet = readSetStorage.getStore();
    if (readSet && op === "1.0/queryStream") readSet.addQuery(JSON.parse(json).query);
    return original.syscall(op, json);
  };
  const asyncSyscall = async (op: string, json: string): Promise<string> => {
    const readSet = readSetStorage.getStore();
    if (readSet) {
      const args = JSON.parse(json);
      if (op === "1.0/get") readSet.ids.add(args.id);
      else if (op === "1.0/queryPage") readSet.addQuery(args.query);
      else if (op === "1.0/count") readSet.tables.add(args.table);
      else if (op === "1.0/storageGetUrl") readSet.ids.add(args.storageId);
    }
    const engine = engineFor();
    if (engine && op === "1.0/storageGetUrl") {
      const { storageId } = JSON.parse(json) as { storageId: string };
      const exists = engine.db.get("_storage", storageId) !== null;
      return JSON.stringify(exists ? engine.hooks.storageUrl(storageId) : null);
    }
    if (engine && op === "1.0/storageGenerateUploadUrl") return JSON.stringify(engine.hooks.uploadUrl());
    if (op === "1.0/schedule" || op === "1.0/actions/schedule") {
      // convex-test arms the job's timer synchronously in here: give the job its own log context.
      const { name = "scheduled function" } = JSON.parse(json) as { name?: string };
      return readSetStorage.exit(() => callStorage.run({ udfPath: name, logLines: [] }, () => original.asyncSyscall(op, json)));
    }
    return original.asyncSyscall(op, json);
  };
  g.Convex = {
    get syscall() {
      return syscall;
    },
    get asyncSyscall() {
      return asyncSyscall;
    },
    get jsSyscall() {
      return original.jsSyscall;
    },
  } as ConvexGlobal;

  const getUserIdentity = internals.AuthFake.prototype.getUserIdentity;
  internals.AuthFake.prototype.getUserIdentity = function (this: unknown) {
    const readSet = readSetStorage.getStore();
    if (readSet) readSet.identity = true;
    return getUserIdentity.call(this);
  };

  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const write = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const call = callStorage.getStore();
      if (!call) return write(...args);
      const line = `[${level === "log" ? "LOG" : level.toUpperCase()}] ${format(...args)}`;
      call.logLines.push(line);
      write(`[${call.udfPath}] ${line}`);
    };
  }
}

export function parseUdfPath(udfPath: string): { module: string; name: string; canonical: string } {
  const [rawModule, name = "default"] = udfPath.split(":");
  const module = rawModule.replace(/\.(js|ts)$/, "");
  return { module, name, canonical: `${module}:${name}` };
}

function errorMessageOf(error: unknown): { message: string; data: Value | undefined } {
  if (error instanceof Error && "data" in error && (error as { data?: unknown }).data !== undefined) {
    const data = (error as { data: Value }).data;
    return { message: `Uncaught ConvexError: ${typeof data === "string" ? data : JSON.stringify(convexToJson(data))}`, data };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: `Uncaught Error: ${message}`, data: undefined };
}

export class Engine {
  /** Module path without extension (absolute) → loader. */
  private modules = new Map<string, () => Promise<Record<string, unknown>>>();
  private tableIndex!: TableIndex;
  /** The source of the query convex-test is resolving right now (set around startQuery/paginate). */
  private querySource: QuerySource | undefined;
  /** Top-level async context: follow-up work started from inside a handler runs here. */
  readonly detached = AsyncResource.bind((fn: () => void) => fn());

  private constructor(
    readonly convexDir: string,
    readonly internals: ConvexTestInternals,
    readonly t: TestAccessor,
    readonly global: ConvexGlobal,
    readonly db: DatabaseFake,
    readonly hooks: EngineHooks,
  ) {}

  static async create(convexDir: string, importer: Importer, hooks: EngineHooks): Promise<Engine> {
    const internals = await loadConvexTestInternals();
    const modules = buildModuleMap(convexDir, importer);
    await preloadAll(modules);
    const schema = await loadSchema(convexDir, modules);
    const t = internals.convexTest(schema, modules);
    installProcessSeams(internals);
    const global = t._convexGlobal;
    const db = global.components[""].db;
    const engine = new Engine(path.resolve(convexDir), internals, t, global, db, hooks);
    engine.useModules(modules);
    engines.set(global, engine);
    engine.hookCommits();
    return engine;
  }

  /** Swaps in freshly imported modules and schema (dev mode); data is untouched. */
  async reload(importer: Importer): Promise<void> {
    const modules = buildModuleMap(this.convexDir, importer);
    await preloadAll(modules);
    const schema = await loadSchema(this.convexDir, modules);
    // A throwaway engine compiles the new schema the way convex-test does (indexes, validators).
    this.db._schema = this.internals.convexTest(schema, modules)._convexGlobal.components[""].db._schema;
    this.useModules(modules);
    this.rebuildTableIndex();
  }

  private rebuildTableIndex() {
    const indexes = new Map([...(this.db._schema?.tables ?? new Map())].map(([table, t]) => [table, t.indexes]));
    this.tableIndex = new TableIndex((id) => this.internals.tableNameFromId(id) ?? "", indexes);
    for (const doc of Object.values(this.db._documents)) this.tableIndex.update(doc._id, null, doc);
  }

  private useModules(modules: ModuleMap) {
    const root = this.convexDir;
    const byPath = new Map<string, () => Promise<Record<string, unknown>>>();
    for (const [file, load] of Object.entries(modules)) byPath.set(file.replace(/\.[^./]+$/, ""), load);
    this.modules = byPath;
    this.global.components[""].modules = async (p: string) => {
      const load = byPath.get(path.join(root, p));
      if (!load) throw new Error(`Could not find module for: "${p}"`);
      return await load();
    };
  }

  dispose() {
    engines.delete(this.global);
  }

  /** Loads persisted documents (restore from disk). */
  restoreDocuments(docs: Iterable<Doc>) {
    for (const doc of docs) this.db._documents[doc._id] = doc;
    this.rebuildTableIndex();
  }

  private hookCommits() {
    const db = this.db;
    const commit = db.commit.bind(db);
    const hooks = this.hooks;
    const tableOf = (id: string) => this.internals.tableNameFromId(id) ?? "";
    this.rebuildTableIndex();
    for (const method of ["startQuery", "paginate"] as const) {
      const original = db[method].bind(db) as (arg: { query: { source: QuerySource } } & { source: QuerySource }) => unknown;
      (db as unknown as Record<string, unknown>)[method] = (arg: { query?: { source: QuerySource }; source?: QuerySource }) => {
        this.querySource = method === "startQuery" ? arg.source : arg.query?.source;
        try {
          return original(arg as never);
        } finally {
          this.querySource = undefined;
        }
      };
    }
    db._iterateDocs = (table: string, callback: (doc: Doc) => void) => {
      let ids = this.tableIndex.candidates(table, this.querySource);
      if (db._writes.length > 0) {
        const all = new Set(ids);
        for (const layer of db._writes) for (const id of Object.keys(layer)) if (tableOf(id) === table) all.add(id);
        ids = all;
      }
      for (const id of ids) {
        const doc = db.get(table, id);
        if (doc !== null) callback(doc);
      }
    };
    db.commit = (commitTs: bigint | null) => {
      const writes = db._writes.length === 1 ? db._writes[0] : null;
      const before = new Map<string, Doc | null>();
      if (writes) for (const id of Object.keys(writes)) before.set(id, db._documents[id] ?? null);
      commit(commitTs);
      if (writes === null) return;
      for (const [id, old] of before) this.tableIndex.update(id, old, db._documents[id] ?? null);
      if (commitTs === null) return;
      const call = callStorage.getStore();
      if (call) call.commitTs = commitTs;
      if (before.size === 0) return;
      const changes: Change[] = [];
      for (const [id, old] of before) {
        changes.push({ id, table: this.internals.tableNameFromId(id) ?? "", before: old, after: db._documents[id] ?? null });
      }
      hooks.onCommit(commitTs, changes);
    };
    const storeFile = db.storeFile.bind(db);
    db.storeFile = (storageId: string, blob: Blob) => {
      storeFile(storageId, blob);
      hooks.onFileStored(storageId, blob);
    };
  }

  currentTs(): bigint {
    return this.global.transactionManager._lastCommitTs;
  }

  rangeMatches = (doc: Doc, filter: unknown) => this.internals.evaluateRangeFilter(doc, filter);

  /** Checks that `udfPath` names a function of `kind` the caller may run. */
  async resolve(udfPath: string, kind: FunctionKind | "any", admin: boolean): Promise<{ canonical: string; kind: FunctionKind }> {
    const { module, name, canonical } = parseUdfPath(udfPath);
    const exports = await this.moduleExports(module);
    const fn = exports?.[name] as { isQuery?: boolean; isMutation?: boolean; isAction?: boolean; isPublic?: boolean } | undefined;
    if (!fn || !(fn.isQuery || fn.isMutation || fn.isAction)) {
      throw new FunctionError(`Could not find public function for '${canonical}'. Did you forget to run \`npx convex dev\` or \`npx convex deploy\`?`, undefined, []);
    }
    if (!fn.isPublic && !admin) {
      throw new FunctionError(`Could not find public function for '${canonical}'.`, undefined, []);
    }
    const actual: FunctionKind = fn.isQuery ? "query" : fn.isMutation ? "mutation" : "action";
    if (kind !== "any" && actual !== kind) {
      throw new FunctionError(`Trying to execute ${canonical} as ${kind === "action" ? "Action" : kind === "query" ? "Query" : "Mutation"}, but it is defined as ${actual === "query" ? "Query" : actual === "mutation" ? "Mutation" : "Action"}.`, undefined, []);
    }
    return { canonical, kind: actual };
  }

  async exists(udfPath: string): Promise<boolean> {
    try {
      await this.resolve(udfPath, "any", true);
      return true;
    } catch {
      return false;
    }
  }

  async hasHttpRouter(): Promise<boolean> {
    const router = (await this.moduleExports("http"))?.default as { isRouter?: boolean } | undefined;
    return router?.isRouter === true;
  }

  /** The module's exports, or undefined when the module does not exist. */
  async moduleExports(module: string): Promise<Record<string, unknown> | undefined> {
    return await this.modules.get(path.join(this.convexDir, module))?.();
  }

  accessor(identity: Identity | null): TestAccessor {
    return identity ? this.t.withIdentity(identity) : this.t;
  }

  async call(kind: FunctionKind | "any", udfPath: string, jsonArgs: unknown, options: CallOptions): Promise<CallResult> {
    const { canonical, kind: actual } = await this.resolve(udfPath, kind, options.admin ?? false);
    const args = jsonToConvex((jsonArgs ?? {}) as never) as Record<string, Value>;
    const context: CallContext = { udfPath: canonical, logLines: [] };
    const accessor = this.accessor(options.identity) as unknown as Record<string, (p: unknown, a: unknown) => Promise<Value>>;
    const functionPath = { udfPath: canonical, componentPath: "" };
    const run = () => callStorage.run(context, () => accessor[`${actual}FromPath`](functionPath, args));
    try {
      const value = options.readSet ? await readSetStorage.run(options.readSet, run) : await run();
      return { value: convexToJson(value ?? null), logLines: context.logLines, commitTs: context.commitTs };
    } catch (error) {
      const { message, data } = errorMessageOf(error);
      throw new FunctionError(message, data === undefined ? undefined : convexToJson(data), context.logLines);
    }
  }

  /** Stores an uploaded file the way `ctx.storage.store` does; returns its storage id. */
  async storeBlob(blob: Blob): Promise<string> {
    return (await this.t.action(async (ctx: { storage: { store(b: Blob): Promise<string> } }) => ctx.storage.store(blob))) as unknown as string;
  }

  /** Re-arms timers for scheduled functions that were pending when the data was persisted. */
  rearmScheduled() {
    const now = Date.now();
    for (const doc of Object.values(this.db._documents)) {
      if (!doc._id.endsWith("_scheduled_functions") || doc.state?.kind !== "pending") continue;
      setTimeout(() => {
        this.detached(() => {
          void this.internals.convexGlobalStorage.run(this.global, () =>
            this.internals.runScheduledFunction({
              db: this.db,
              jobId: doc._id,
              componentPath: "",
              functionPath: { udfPath: doc.name, componentPath: "" },
              args: doc.args[0],
              name: doc.name,
            }),
          );
        });
      }, Math.max(0, doc.scheduledTime - now));
    }
  }
}

async function loadSchema(convexDir: string, modules: ModuleMap): Promise<unknown> {
  const base = path.join(path.resolve(convexDir), "schema");
  const file = Object.keys(modules).find((f) => f.replace(/\.[^./]+$/, "") === base);
  if (!file || !existsSync(file)) return undefined;
  return (await modules[file]()).default;
}
