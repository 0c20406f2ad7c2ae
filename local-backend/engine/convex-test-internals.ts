// The ONLY file that reaches into convex-test internals. Pinned: convex-test 0.0.60.
// convex-test keeps its database and scheduler in module-private state. We load a copy of its
// dist/index.js with a few extra exports appended, and route its in-memory database to the engine's
// document store (`useDocumentStore`, engine/document-store.ts): reads and writes by id, query streams,
// pages and counts. Stored files are the engine's (engine/files.ts), and so are scheduled jobs
// (engine/scheduler.ts). Its transaction manager is replaced by the engine's
// (engine/serial-transactions.ts).
// `installProcessHooks` replaces what convex-test reaches through `globalThis.Convex`: the engine decides what its hooks do (engine/convex-test-seams.ts), this file how they
// are installed. Nothing here loads convex-test until `loadConvexTestInternals` is called.
// The engine's own async context, refused globals and document JSON are not convex-test's
// (engine/call-context.ts, engine/transaction-globals.ts, engine/document-json.ts).
// Every textual patch is checked: an upgrade that moves these anchors fails loudly here.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { JSONValue, Value } from "convex/values";
import type { Doc, DocumentStore } from "./document-store.ts";
import type { QueryStreams } from "./query-streams.ts";
import type { MetricsTracker } from "./transaction.ts";

export const PINNED_CONVEX_TEST_VERSION = "0.0.60";

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeModules = path.resolve(here, "../../node_modules");

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * convex-test's in-memory database. Nothing of it is used: its documents (`_documents`), writes, ids,
 * query streams, schema (`_schema`) and files (`_storage`) are the engine's. get/insert/patch/replace/
 * delete are routed to engine/document-writes.ts and its query syscalls to engine/query-streams.ts, for
 * convex-test's own runs too.
 */
interface DatabaseFake {
  /** Set by useDocumentStore: what the patched tableNameFromId answers. */
  _localBackendTableOf?: (id: string) => string | null;
  /** Set by useDocumentStore: what convex-test's patched query syscalls answer from. */
  _localBackendStreams?: QueryStreams;
  get(table: string | undefined, id: string): Doc | null;
  insert(table: string, value: Record<string, Value>): string;
  patch(table: string | undefined, id: string, value: Record<string, JSONValue>): void;
  replace(table: string | undefined, id: string, value: Record<string, JSONValue>): void;
  delete(table: string | undefined, id: string): void;
  /** Every document of a table visible to the current transaction (convex-test scans all tables here). */
  _iterateDocs(table: string, callback: (doc: Doc) => void): void;
}

export interface ConvexGlobal {
  components: Record<string, { db: DatabaseFake; modules: (p: string) => Promise<any> }>;
  /** What convex-test's own runs begin, commit and roll back their levels with (the engine's SerialTransactions). */
  transactionManager: {
    begin(isNested: boolean, transactionLimits?: Record<string, number>): Promise<void>;
    commit(isNested: boolean): bigint | null;
    rollback(isNested: boolean): void;
    getMetricsTracker(): MetricsTracker | null;
    getSnapshotTs(): bigint;
    stashWrites(): unknown;
    restoreWrites(stashed: never): void;
  };
  syscall: (op: string, args: string) => string;
  asyncSyscall: (op: string, args: string) => Promise<string>;
  jsSyscall: (op: string, args: any) => Promise<any>;
}

export interface TestAccessor {
  query(ref: any, args?: any): Promise<any>;
  mutation(ref: any, args?: any): Promise<any>;
  action(ref: any, args?: any): Promise<any>;
  run<T>(handler: (ctx: any) => Promise<T>): Promise<T>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  withIdentity(identity: Record<string, unknown>): TestAccessor;
}

/** A TestAccessor whose calls wait for `load` (convex-test loaded on first use). */
export function deferredAccessor(load: () => Promise<TestAccessor>): TestAccessor {
  return {
    query: (ref, args) => load().then((t) => t.query(ref, args)),
    mutation: (ref, args) => load().then((t) => t.mutation(ref, args)),
    action: (ref, args) => load().then((t) => t.action(ref, args)),
    run: (handler) => load().then((t) => t.run(handler)),
    fetch: (path, init) => load().then((t) => t.fetch(path, init)),
    withIdentity: (identity) =>
      deferredAccessor(() => load().then((t) => t.withIdentity(identity))),
  };
}

export interface ConvexTestInternals {
  convexTest(options: {
    schema: any;
    modules: Record<string, () => Promise<any>>;
    /** true: Convex's per-transaction limits are enforced. */
    transactionLimits: boolean;
  }): TestAccessor & { _convexGlobal: ConvexGlobal };
  convexGlobalStorage: {
    run<T>(store: ConvexGlobal, fn: () => T): T;
    getStore(): ConvexGlobal | undefined;
  };
  localBackendHooks: {
    /** Set by the engine: Convex's checks of arguments and results (engine/convex-values.ts). */
    checkArgs: (validator: any, args: any, udfPath: string, tableOf: TableOfId) => void;
    checkResult: (validator: any, result: any, udfPath: string, tableOf: TableOfId) => void;
    /** Runs a query's or mutation's handler under Convex's execution time limit (top level only). */
    timed: <T>(isNested: boolean, run: () => Promise<T>) => Promise<T>;
    /** Set by the engine: a committed document's JSON text, size and convexToJson form (engine/document-json.ts). */
    docJson: ((doc: Doc) => string) | null;
    docSize: ((doc: Doc) => number) | null;
    docForm: ((doc: Doc) => JSONValue) | null;
  };
  /** Where ctx.db's copy of convex/server hands its direct reads (see `writeDirectDatabase`). */
  localBackendDirect: { syscall: DirectSyscall | null; asyncSyscall: DirectSyscall | null };
  /** convex-test's nested-call lock: set while one of its runs is inside a transaction. */
  nestedTxStorage: { getStore(): unknown };
  /** convex-test's answers to the direct reads (queryStream, queryCleanup; get, queryStreamNext, queryPage). */
  localBackendDirectSyscall: DirectSyscall;
  localBackendDirectAsyncSyscall: DirectSyscall;
}

/**
 * A syscall whose arguments and answer are the objects convex/server would have sent and parsed as
 * JSON; undefined for an operation that takes the JSON path.
 */
export type DirectSyscall = (op: string, args: Record<string, any>) => unknown;

type TableOfId = (id: string) => string | null;

type Syscall = (op: string, json: string) => string;
type AsyncSyscall = (op: string, json: string) => Promise<string>;
type JsSyscall = (op: string, args: any) => Promise<any>;

/** What the engine does around convex-test's calls; installed once per process. */
export interface ProcessHooks {
  /** Every synchronous syscall of a function; `original` is convex-test's answer. */
  syscall(op: string, json: string, original: Syscall): string;
  /** Every asynchronous syscall of a function; `original` is convex-test's answer. */
  asyncSyscall(op: string, json: string, original: AsyncSyscall): Promise<string>;
  /** Every syscall made with objects (an action's storage/storeBlob, storage/getBlob); `original` is convex-test's. */
  jsSyscall(op: string, args: any, original: JsSyscall): Promise<any>;
  /** A read ctx.db hands over as objects (db.get, a query's stream); `original` is convex-test's answer. */
  directAsyncSyscall(op: string, args: Record<string, any>, original: DirectSyscall): unknown;
  /** Convex's checks of arguments and results, and its time limit (engine/convex-values.ts). */
  checkArgs: ConvexTestInternals["localBackendHooks"]["checkArgs"];
  checkResult: ConvexTestInternals["localBackendHooks"]["checkResult"];
  timed: ConvexTestInternals["localBackendHooks"]["timed"];
  /** A committed document's JSON text, size and convexToJson form, computed once per version. */
  docJson: (doc: Doc) => string;
  docSize: (doc: Doc) => number;
  docForm: (doc: Doc) => JSONValue;
}

let processHooksInstalled = false;

/** Routes convex-test's syscalls, checks, time limit and document JSON through `hooks`. */
export function installProcessHooks(internals: ConvexTestInternals, hooks: ProcessHooks) {
  if (processHooksInstalled) return;
  processHooksInstalled = true;
  const g = globalThis as unknown as { Convex: ConvexGlobal };
  const original = g.Convex;
  const originalSyscall: Syscall = (op, json) => original.syscall(op, json);
  const originalAsyncSyscall: AsyncSyscall = (op, json) => original.asyncSyscall(op, json);
  const syscall: Syscall = (op, json) => hooks.syscall(op, json, originalSyscall);
  const asyncSyscall: AsyncSyscall = (op, json) =>
    hooks.asyncSyscall(op, json, originalAsyncSyscall);
  const originalJsSyscall: JsSyscall = (op, args) => original.jsSyscall(op, args);
  const jsSyscall: JsSyscall = (op, args) => hooks.jsSyscall(op, args, originalJsSyscall);
  g.Convex = {
    get syscall() {
      return syscall;
    },
    get asyncSyscall() {
      return asyncSyscall;
    },
    get jsSyscall() {
      return jsSyscall;
    },
  } as ConvexGlobal;

  const directAsyncSyscall = internals.localBackendDirectAsyncSyscall;
  internals.localBackendDirect.syscall = internals.localBackendDirectSyscall;
  internals.localBackendDirect.asyncSyscall = (op, args) =>
    hooks.directAsyncSyscall(op, args, directAsyncSyscall);

  internals.localBackendHooks.checkArgs = hooks.checkArgs;
  internals.localBackendHooks.checkResult = hooks.checkResult;
  internals.localBackendHooks.timed = hooks.timed;
  internals.localBackendHooks.docJson = hooks.docJson;
  internals.localBackendHooks.docSize = hooks.docSize;
  internals.localBackendHooks.docForm = hooks.docForm;
}

function patch(source: string, anchor: string, replacement: string): string {
  if (!source.includes(anchor)) {
    throw new Error(
      `local-backend: convex-test ${PINNED_CONVEX_TEST_VERSION} anchor not found (${JSON.stringify(anchor)}); ` +
        "convex-test was upgraded: re-check local-backend/engine/convex-test-internals.ts",
    );
  }
  return source.replace(anchor, replacement);
}

/** Replaces the text from `start` up to (not including) `end`, both of which must be found in that order. */
function replaceBetween(source: string, start: string, end: string, replacement: string): string {
  const from = source.indexOf(start);
  const to = from < 0 ? -1 : source.indexOf(end, from);
  if (to < 0) patch("", start + " … " + end, "");
  return source.slice(0, from) + replacement + source.slice(to);
}

/**
 * A context slot with AsyncLocalStorage's run/exit/getStore, kept in one shared storage's frame: a
 * run copies the frame with the slot's new value, so promises carry one store instead of one per slot.
 */
const CONTEXT_SLOTS_SOURCE = `const localBackendFrames = new AsyncLocalStorage();
class LocalBackendSlot {
    key = Symbol("slot");
    getStore() {
        return localBackendFrames.getStore()?.[this.key];
    }
    run(store, callback, ...args) {
        return localBackendFrames.run({ ...localBackendFrames.getStore(), [this.key]: store }, callback, ...args);
    }
    exit(callback, ...args) {
        return this.run(undefined, callback, ...args);
    }
    runAlone(store, callback) {
        return localBackendFrames.run({ [this.key]: store }, callback);
    }
}
`;

/** The convex package's server/impl directory, by its real path: the instances the app's convex/server imports. */
const convexServerImplDir = () =>
  realpathSync(path.join(nodeModules, "convex/dist/esm/server/impl"));

let loaded: Promise<ConvexTestInternals> | undefined;

export function loadConvexTestInternals(): Promise<ConvexTestInternals> {
  loaded ??= (async () => {
    const pkgDir = path.join(nodeModules, "convex-test");
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as {
      version: string;
    };
    if (pkg.version !== PINNED_CONVEX_TEST_VERSION) {
      throw new Error(
        `local-backend needs convex-test ${PINNED_CONVEX_TEST_VERSION}, found ${pkg.version}`,
      );
    }
    // Lives under node_modules so bare imports ("convex/server") resolve to the same
    // instances the app's modules use, and test runners treat it as an external module.
    const outDir = path.join(nodeModules, ".cache", "local-backend");
    mkdirSync(outDir, { recursive: true });
    const direct = writeDirectDatabase(outDir);
    let source = readFileSync(path.join(pkgDir, "dist/index.js"), "utf8");
    source = patch(
      source,
      `from "./transactionMetrics.js"`,
      `from ${JSON.stringify(pathToFileURL(path.join(pkgDir, "dist/transactionMetrics.js")).href)};\n` +
        `import { setupReader as localBackendSetupReader, setupWriter as localBackendSetupWriter } from ${JSON.stringify(direct.database)};\n` +
        `import { localBackendDirect } from ${JSON.stringify(direct.syscall)};\n`,
    );
    // Functions read through ctx.db's copy with the direct transport (writeDirectDatabase).
    source = patch(
      source,
      "                const testCtx = {\n                    ...ctx,\n                    auth: authStorage.getStore() ?? auth,\n                    ...extraCtx,\n                };",
      "                const testCtx = {\n                    ...ctx,\n                    db: localBackendSetupWriter(),\n                    auth: authStorage.getStore() ?? auth,\n                    ...extraCtx,\n                };",
    );
    source = patch(
      source,
      "                const testCtx = { ...ctx, auth: authStorage.getStore() ?? auth };",
      "                const testCtx = { ...ctx, db: localBackendSetupReader(), auth: authStorage.getStore() ?? auth };",
    );
    // convex-test's six AsyncLocalStorages become slots of one: on Node 20 every enabled storage adds
    // its own step to every promise created anywhere in the process.
    source = patch(
      source,
      'import { AsyncLocalStorage } from "node:async_hooks";\n',
      'import { AsyncLocalStorage } from "node:async_hooks";\n' + CONTEXT_SLOTS_SOURCE,
    );
    for (const name of [
      "nestedTxStorage",
      "authStorage",
      "convexGlobalStorage",
      "executionContextStorage",
      "requestMetadataStorage",
      "globalOverridesStorage",
    ])
      source = patch(
        source,
        `const ${name} = new AsyncLocalStorage();`,
        `const ${name} = new LocalBackendSlot();`,
      );
    source = patch(
      source,
      "        registerComponent,\n    };\n}",
      "        registerComponent,\n        _convexGlobal: convexGlobal,\n    };\n}",
    );
    // HTTP actions see the deployment's real site URL in request.url.
    source = patch(
      source,
      "const url = new URL(`https://some.convex.site${path}`);",
      'const url = new URL(`${process.env.CONVEX_SITE_URL ?? "https://some.convex.site"}${path}`);',
    );
    // As on Convex, a mutation's `returns` validator runs before its transaction commits: a result it
    // refuses rolls the writes back (convex-test checked it after the commit).
    source = patch(
      source,
      "            const rawResult = await nestedTxStorage.run(childLock, invokeInContext);\n            const commitTs = transactionManager.commit(isNested);",
      "            const rawResult = await nestedTxStorage.run(childLock, invokeInContext);\n" +
        '            validateReturnValue(returnsValidator, jsonToConvex(JSON.parse(rawResult)), "mutation", functionPath);\n' +
        "            const commitTs = transactionManager.commit(isNested);",
    );
    source = patch(
      source,
      "const runMutationWithHandler = async (handler, args, extraCtx = {}, functionPath, isNested, transactionLimits) => {",
      "const runMutationWithHandler = async (handler, args, extraCtx = {}, functionPath, isNested, transactionLimits, returnsValidator = null) => {",
    );
    source = patch(
      source,
      "const result = await runMutationWithHandler(resolved.handler, args, {}, resolved.functionPath, isNested, transactionLimits);",
      "const result = await runMutationWithHandler(resolved.handler, args, {}, resolved.functionPath, isNested, transactionLimits, resolved.returns);",
    );
    // Ids are Convex's (engine/ids.ts): the table comes from the id's table number, which only the
    // deployment's TableNumbers can name. convex-test reads ids' tables here (v.id validation of
    // arguments and results, normalizeId); its own reading of "<digits><table>" goes.
    source = patch(
      source,
      "function tableNameFromId(id) {\n    const match = id.match(/^[0-9]+/);\n" +
        "    if (!match || match[0].length === id.length) {\n        return null;\n    }\n" +
        "    return id.slice(match[0].length);\n}",
      "function tableNameFromId(id) {\n    return getDb()._localBackendTableOf(id);\n}",
    );
    // convex-test re-checks a dozen global property descriptors on every call in case a test stubbed a
    // global in between; nothing replaces them in the server, so the accessors are installed once.
    source = patch(
      source,
      "function runWithGlobalOverrides(overrides, handler) {\n    installGlobalProxies();",
      "let localBackendProxiesInstalled = false;\nfunction runWithGlobalOverrides(overrides, handler) {\n" +
        "    if (!localBackendProxiesInstalled) {\n        installGlobalProxies();\n        localBackendProxiesInstalled = true;\n    }",
    );
    // Validation as Convex does it, with its messages (ArgumentValidationError, ReturnsValidationError):
    // the engine installs the checks of engine/convex-values.ts.
    source = patch(
      source,
      "    validateValidator(argsValidator, resolvePendingValues(args));\n}",
      "    localBackendHooks.checkArgs(argsValidator, resolvePendingValues(args), functionPath.udfPath, tableNameFromId);\n}",
    );
    source = patch(
      source,
      "    if (returnsValidator !== null) {\n        try {\n            validateValidator(returnsValidator, resolvePendingValues(result));\n" +
        '        }\n        catch (e) {\n            throw new Error(`Return value validation failed for ${functionType} "${functionPath.udfPath}":\\n${e.message}`);\n' +
        "        }\n    }\n}",
      "    localBackendHooks.checkResult(returnsValidator, resolvePendingValues(result), functionPath.udfPath, tableNameFromId);\n}",
    );
    // Query streams, pages and counts are the engine's (engine/query-streams.ts): convex-test's syscalls
    // answer from the streams useDocumentStore gives its database, and the one `.paginate()`
    // per function execution is counted there, on convex-test's execution context.
    source = patch(
      source,
      "                const queryId = db.startQuery(query);",
      "                const queryId = db._localBackendStreams.start(query);",
    );
    source = patch(
      source,
      "                const { value, done } = db.queryNext(args.queryId);",
      "                const { value, done } = db._localBackendStreams.next(args.queryId);",
    );
    source = replaceBetween(
      source,
      "                // Convex only allows a single paginated query (`.paginate()`) per",
      "                    query,\n                    cursor,\n                    endCursor,",
      "                const { page, isDone, continueCursor, splitCursor, pageStatus } = db._localBackendStreams.paginate({\n",
    );
    source = patch(
      source,
      "                    maximumBytesRead,\n                });\n                if (tracker) {",
      "                    maximumBytesRead,\n                }, executionContextStorage.getStore());\n                if (tracker) {",
    );
    source = replaceBetween(
      source,
      "                const queryId = db.startQuery({",
      "                return JSON.stringify(count);",
      "                const count = db._localBackendStreams.count(table);\n",
    );
    // Queries and mutations run under Convex's execution time limit.
    source = patch(
      source,
      "const invokeRaw = () => m.invokeMutation(JSON.stringify(convexToJson([parseArgs(args)])));",
      "const invokeRaw = () => localBackendHooks.timed(isNested, () => m.invokeMutation(JSON.stringify(convexToJson([parseArgs(args)]))));",
    );
    source = patch(
      source,
      "const invokeRaw = () => q.invokeQuery(JSON.stringify(convexToJson([parseArgs(args)])));",
      "const invokeRaw = () => localBackendHooks.timed(isNested, () => q.invokeQuery(JSON.stringify(convexToJson([parseArgs(args)]))));",
    );
    // A committed document never changes (a write makes a new object), so its JSON and size are computed
    // once however often it is read; each read still hands the function a fresh copy, as Convex does.
    source = patch(
      source,
      "                tracker?.trackRead(getDocumentSize(doc));\n            }\n            return doc;",
      "                tracker?.trackRead(localBackendDocSize(doc));\n            }\n            return doc;",
    );
    source = patch(
      source,
      "                const doc = getAndTrack(table, id);\n                return JSON.stringify(convexToJson(doc));",
      '                const doc = getAndTrack(table, id);\n                return doc === null ? "null" : localBackendDocJson(doc);',
    );
    source = patch(
      source,
      "                    tracker?.trackRead(getDocumentSize(value));\n                }\n" +
        "                return JSON.stringify(convexToJson({ value, done }));",
      "                    tracker?.trackRead(localBackendDocSize(value));\n                }\n" +
        "                return done || value === null\n                    ? JSON.stringify(convexToJson({ value, done }))\n" +
        '                    : `{"value":${localBackendDocJson(value)},"done":false}`;',
    );
    source = patch(
      source,
      "                        tracker.trackRead(getDocumentSize(doc));",
      "                        tracker.trackRead(localBackendDocSize(doc));",
    );
    source = patch(
      source,
      "                return JSON.stringify(convexToJson({\n                    page,\n                    isDone,",
      '                return `{"page":[${page.map(localBackendDocJson).join(",")}],` + JSON.stringify(convexToJson({\n                    isDone,',
    );
    source = patch(
      source,
      "                    splitCursor,\n                    pageStatus,\n                }));",
      "                    splitCursor,\n                    pageStatus,\n                })).slice(1);",
    );
    // An HTTP request no route takes: Convex's answer.
    source = patch(
      source,
      "                return new Response(`No HttpAction routed for ${url.pathname}`, {\n                    status: 404,\n                });",
      '                return new Response("No matching routes found", {\n                    status: 404,\n' +
        '                    headers: { "Content-Type": "text/plain; charset=utf-8" },\n                });',
    );
    source +=
      "\nconst localBackendHooks = { checkArgs() {},\n" +
      "    checkResult() {}, timed: (isNested, run) => run(), docJson: null, docSize: null, docForm: null };\n" +
      "const localBackendDocJson = (doc) => localBackendHooks.docJson(doc);\n" +
      "const localBackendDocSize = (doc) => localBackendHooks.docSize(doc);\n" +
      // The direct reads: what asyncSyscallImpl and syscallImpl answer, as objects (a document as its
      // convexToJson form, built once per version; convex/server's jsonToConvex copies it for the function).
      "const localBackendDocForm = (doc) => localBackendHooks.docForm(doc);\n" +
      "function localBackendDirectSyscall(op, args) {\n" +
      "    switch (op) {\n" +
      '        case "1.0/queryStream": {\n' +
      "            const db = getDb();\n" +
      "            getTransactionManager().getMetricsTracker()?.trackIndexRange();\n" +
      "            return { queryId: db._localBackendStreams.start(args.query) };\n" +
      "        }\n" +
      '        case "1.0/queryCleanup":\n' +
      "            return {};\n" +
      "    }\n" +
      "    return undefined;\n" +
      "}\n" +
      "function localBackendDirectAsyncSyscall(op, args) {\n" +
      "    switch (op) {\n" +
      '        case "1.0/get": {\n' +
      "            const db = getDb();\n" +
      "            const tracker = getTransactionManager().getMetricsTracker();\n" +
      "            tracker?.trackIndexRange();\n" +
      "            const doc = db.get(args.table, args.id);\n" +
      "            if (doc === null) return null;\n" +
      "            tracker?.trackRead(localBackendDocSize(doc));\n" +
      "            return localBackendDocForm(doc);\n" +
      "        }\n" +
      '        case "1.0/queryStreamNext": {\n' +
      "            const db = getDb();\n" +
      "            const tracker = getTransactionManager().getMetricsTracker();\n" +
      "            const { value, done } = db._localBackendStreams.next(args.queryId);\n" +
      "            if (done || value === null) return { value: null, done };\n" +
      "            tracker?.trackRead(localBackendDocSize(value));\n" +
      "            return { value: localBackendDocForm(value), done: false };\n" +
      "        }\n" +
      // convex-test's queryPage (asyncSyscallImpl), answered as objects
      '        case "1.0/queryPage": {\n' +
      "            const { query, cursor, endCursor, pageSize, maximumRowsRead, maximumBytesRead } = args;\n" +
      "            const result = getDb()._localBackendStreams.paginate({ query, cursor, endCursor, pageSize, maximumRowsRead, maximumBytesRead },\n" +
      "                executionContextStorage.getStore());\n" +
      "            const tracker = getTransactionManager().getMetricsTracker();\n" +
      "            if (tracker) {\n" +
      "                tracker.trackIndexRange();\n" +
      "                for (const doc of result.page) tracker.trackRead(localBackendDocSize(doc));\n" +
      "            }\n" +
      "            const answer = { page: result.page.map(localBackendDocForm), isDone: result.isDone, continueCursor: result.continueCursor };\n" +
      "            if (result.splitCursor !== undefined) answer.splitCursor = result.splitCursor;\n" +
      "            if (result.pageStatus !== undefined) answer.pageStatus = result.pageStatus;\n" +
      "            return answer;\n" +
      "        }\n" +
      "    }\n" +
      "    return undefined;\n" +
      "}\n" +
      "export { nestedTxStorage, convexGlobalStorage,\n" +
      "    localBackendHooks,\n" +
      "    localBackendDirect, localBackendDirectSyscall, localBackendDirectAsyncSyscall };\n";
    const outFile = writePatched(outDir, "index", source);
    return (await import(pathToFileURL(outFile).href)) as ConvexTestInternals;
  })();
  return loaded;
}

/**
 * convex/server's `ctx.db` (impl/database_impl.js and impl/query_impl.js) copied unchanged but for the
 * transport of its reads: `db.get` and a query's stream (queryStream, queryStreamNext, queryCleanup)
 * hand their arguments and answers to the engine as objects (`ConvexTestInternals.localBackendDirect`)
 * instead of JSON text that is built, parsed twice and parsed back per document; so does a page
 * (`paginate()`, queryPage). Every other syscall (writes, counts, search) takes convex/server's own path. The copies import everything else
 * from the convex package itself, so values, errors and builders are the app's own.
 */
function writeDirectDatabase(outDir: string): { database: string; syscall: string } {
  const implDir = convexServerImplDir();
  const imports = (source: string, local: Record<string, string>) =>
    source.replace(
      /from "(\.{1,2}\/[^"]+)"/g,
      (_, spec: string) =>
        `from ${JSON.stringify(local[spec] ?? pathToFileURL(path.join(implDir, spec)).href)}`,
    );
  const read = (file: string) => readFileSync(path.join(implDir, file), "utf8");
  let syscall = read("syscall.js");
  syscall = patch(
    syscall,
    "  const resultStr = Convex.syscall(op, JSON.stringify(arg));",
    "  const direct = localBackendDirect.syscall?.(op, arg);\n" +
      "  if (direct !== undefined) return direct;\n" +
      "  const resultStr = Convex.syscall(op, JSON.stringify(arg));",
  );
  syscall += DIRECT_SYSCALL_SOURCE;
  const syscallFile = pathToFileURL(writePatched(outDir, "server-syscall", imports(syscall, {})));
  // A direct read is answered in the same synchronous step (no promise per document: each costs the
  // AsyncLocalStorages' hooks), and its document is copied for the function by `localBackendValue`.
  const syscallImport = 'import { performAsyncSyscall, performSyscall } from "./syscall.js";';
  const withDirect =
    "import { performAsyncSyscall, performSyscall, localBackendDirect, localBackendRead, localBackendValue } from " +
    '"./syscall.js";';
  let query = patch(read("query_impl.js"), syscallImport, withDirect);
  query = patch(
    query,
    '    const { value, done } = await performAsyncSyscall("1.0/queryStreamNext", {\n      queryId\n    });',
    "    const { value, done } = localBackendDirect.asyncSyscall !== null ? " +
      'localBackendRead("1.0/queryStreamNext", { queryId }) : await performAsyncSyscall("1.0/queryStreamNext", {\n      queryId\n    });',
  );
  query = patch(
    query,
    "    const convexValue = jsonToConvex(value);",
    "    const convexValue = localBackendValue(value);",
  );
  // collect() as its `for await` over next() does it, each step answered at once.
  query = patch(
    query,
    "  async collect() {\n    const out = [];",
    "  async collect() {\n    if (localBackendDirect.asyncSyscall !== null) return localBackendCollect(this);\n    const out = [];",
  );
  // paginate() with the direct transport: the page's documents come as forms, copied as get's are.
  query = patch(
    query,
    '    const { page, isDone, continueCursor, splitCursor, pageStatus } = await performAsyncSyscall("1.0/queryPage", {',
    "    const pageArgs = {",
  );
  query = patch(
    query,
    "      version\n    });\n    return {\n      page: page.map((json) => jsonToConvex(json)),",
    "      version\n    };\n" +
      "    const { page, isDone, continueCursor, splitCursor, pageStatus } = localBackendDirect.asyncSyscall !== null ? " +
      'localBackendRead("1.0/queryPage", pageArgs) : await performAsyncSyscall("1.0/queryPage", pageArgs);\n' +
      "    return {\n      page: page.map(localBackendValue),",
  );
  query += LOCAL_BACKEND_COLLECT_SOURCE;
  const queryFile = writePatched(
    outDir,
    "server-query",
    imports(query, { "./syscall.js": syscallFile.href }),
  );
  let database = patch(read("database_impl.js"), syscallImport, withDirect);
  database = patch(
    database,
    '  const syscallJSON = await performAsyncSyscall("1.0/get", args);\n  return jsonToConvex(syscallJSON);',
    "  const syscallJSON = localBackendDirect.asyncSyscall !== null ? " +
      'localBackendRead("1.0/get", args) : await performAsyncSyscall("1.0/get", args);\n' +
      "  return localBackendValue(syscallJSON);",
  );
  // db.get hands on get's promise rather than awaiting it in a promise of its own.
  database = patch(
    database,
    "      get: async (arg0, arg1) => {\n        return arg1 !== void 0 ? await get(arg0, arg1, isSystem) : await get(void 0, arg0, isSystem);\n      },",
    "      get: (arg0, arg1) => {\n        return arg1 !== void 0 ? get(arg0, arg1, isSystem) : get(void 0, arg0, isSystem);\n      },",
  );
  const databaseFile = writePatched(
    outDir,
    "server-database",
    imports(database, {
      "./syscall.js": syscallFile.href,
      "./query_impl.js": pathToFileURL(queryFile).href,
    }),
  );
  return { database: pathToFileURL(databaseFile).href, syscall: syscallFile.href };
}

/**
 * Appended to the copy of convex/server's syscall.js. A direct read answers a document as its
 * convexToJson form (shared, never changed); `localBackendValue` gives the function its own copy, the
 * value jsonToConvex would make of it, without re-checking field names convexToJson already checked.
 * The forms' only `$` keys are the encoded values ($bytes, $integer, $float, $commitTs): jsonToConvex's.
 */
const DIRECT_SYSCALL_SOURCE = `
export const localBackendDirect = { syscall: null, asyncSyscall: null };
function localBackendCopy(value) {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = [];
    for (let i = 0; i < value.length; i++) out.push(localBackendCopy(value[i]));
    return out;
  }
  const out = {};
  for (const key in value) {
    if (key.charCodeAt(0) === 36) return jsonToConvex(value);
    out[key] = localBackendCopy(value[key]);
  }
  return out;
}
/** A direct read (installed with the Convex global), with performAsyncSyscall's errors. */
export function localBackendRead(op, arg) {
  try {
    return localBackendDirect.asyncSyscall(op, arg);
  } catch (e) {
    if (e.data !== void 0) {
      const rethrown = new ConvexError(e.message);
      rethrown.data = jsonToConvex(e.data);
      throw rethrown;
    }
    throw new Error(e.message);
  }
}
export function localBackendValue(json) {
  return localBackendDirect.asyncSyscall === null ? jsonToConvex(json) : localBackendCopy(json);
}
`;

/** Appended to the copy of query_impl.js: `collect()` of a query whose reads are direct. */
const LOCAL_BACKEND_COLLECT_SOURCE = `
function localBackendCollect(query) {
  const queryId = query.startQuery();
  const out = [];
  for (;;) {
    const { value, done } = localBackendRead("1.0/queryStreamNext", { queryId });
    if (done) {
      query.closeQuery();
      return out;
    }
    out.push(localBackendValue(value));
  }
}
`;

/** Writes a patched file named by its content: checkouts sharing node_modules may patch differently at once. */
function writePatched(outDir: string, name: string, source: string): string {
  const digest = createHash("sha256").update(source).digest("hex").slice(0, 12);
  const outFile = path.join(
    outDir,
    `convex-test-${PINNED_CONVEX_TEST_VERSION}-${name}-${digest}.mjs`,
  );
  const tmp = `${outFile}.${process.pid}.tmp`;
  writeFileSync(tmp, source);
  renameSync(tmp, outFile);
  return outFile;
}

/** Replaces convex-test's module lookup (it globs files itself unless given a map it then caches per key). */
export function useModuleLoader(
  global: ConvexGlobal,
  loader: (modulePath: string) => Promise<Record<string, unknown>>,
) {
  global.components[""].modules = loader;
}

/**
 * Routes convex-test's in-memory database to the engine's `store`: reads and writes by id
 * (engine/document-writes.ts), query streams, pages and counts (engine/query-streams.ts) and ids'
 * tables. Nothing of its own database stays used.
 */
export function useDocumentStore(
  global: ConvexGlobal,
  store: DocumentStore,
  tableOf: (id: string) => string | null,
) {
  const db = global.components[""].db;
  const writes = store.transactionStore();
  db._localBackendTableOf = (id) => (typeof id === "string" ? tableOf(id) : null);
  db.get = (table, id) => writes.get(table, id);
  db.insert = (table, value) => writes.insert(table, value);
  db.patch = (table, id, value) => writes.patch(table, id, value);
  db.replace = (table, id, value) => writes.replace(table, id, value);
  db.delete = (table, id) => writes.delete(table, id);
  db._localBackendStreams = store.queryStreams;
  db._iterateDocs = (table, callback) => {
    for (const doc of store.visibleDocuments(table)) callback(doc);
  };
}
