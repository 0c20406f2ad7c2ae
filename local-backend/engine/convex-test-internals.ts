// The ONLY file that reaches into convex-test internals. Pinned: convex-test 0.0.60.
// convex-test keeps its database, transaction manager and scheduler in module-private
// state. We load a copy of its dist/index.js with a few extra exports appended so the
// backend can observe commits, restore persisted documents and re-arm scheduled jobs.
// Every textual patch is checked: an upgrade that moves these anchors fails loudly here.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const PINNED_CONVEX_TEST_VERSION = "0.0.60";

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeModules = path.resolve(here, "../../node_modules");

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Doc = Record<string, any> & { _id: string; _creationTime: number };

export interface DatabaseFake {
  _documents: Record<string, Doc>;
  _storage: Record<string, Blob>;
  _nextDocId: number;
  _lastCreationTime: number;
  _writes: Record<string, Doc | null>[];
  commit(commitTs: bigint | null): void;
  storeFile(storageId: string, blob: Blob): void;
  get(table: string | undefined, id: string): Doc | null;
  /** Every document of a table visible to the current transaction (convex-test scans all tables here). */
  _iterateDocs(table: string, callback: (doc: Doc) => void): void;
  _schema: { tables: Map<string, { indexes: { indexDescriptor: string; fields: string[] }[] }> } | null;
  startQuery(query: unknown): number;
  paginate(args: unknown): unknown;
}

export interface ConvexGlobal {
  components: Record<string, { db: DatabaseFake; modules: (p: string) => Promise<any> }>;
  transactionManager: { _lastCommitTs: bigint };
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

export interface ConvexTestInternals {
  convexTest(schema: any, modules: Record<string, () => Promise<any>>): TestAccessor & { _convexGlobal: ConvexGlobal };
  convexGlobalStorage: { run<T>(store: ConvexGlobal, fn: () => T): T; getStore(): ConvexGlobal | undefined };
  evaluateRangeFilter(doc: Doc, filter: unknown): boolean;
  tableNameFromId(id: string): string | null;
  runScheduledFunction(args: {
    db: DatabaseFake;
    jobId: string;
    componentPath: string;
    functionPath: { udfPath: string; componentPath: string };
    args: unknown;
    name: string;
  }): Promise<void>;
  AuthFake: { prototype: { getUserIdentity(): Promise<unknown> } };
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

let loaded: Promise<ConvexTestInternals> | undefined;

export function loadConvexTestInternals(): Promise<ConvexTestInternals> {
  loaded ??= (async () => {
    const pkgDir = path.join(nodeModules, "convex-test");
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { version: string };
    if (pkg.version !== PINNED_CONVEX_TEST_VERSION) {
      throw new Error(`local-backend needs convex-test ${PINNED_CONVEX_TEST_VERSION}, found ${pkg.version}`);
    }
    let source = readFileSync(path.join(pkgDir, "dist/index.js"), "utf8");
    source = patch(
      source,
      `from "./transactionMetrics.js"`,
      `from ${JSON.stringify(pathToFileURL(path.join(pkgDir, "dist/transactionMetrics.js")).href)}`,
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
      "const url = new URL(`${process.env.CONVEX_SITE_URL ?? \"https://some.convex.site\"}${path}`);",
    );
    source +=
      "\nexport { convexGlobalStorage, evaluateRangeFilter, tableNameFromId, runScheduledFunction, AuthFake };\n";
    // Lives under node_modules so bare imports ("convex/server") resolve to the same
    // instances the app's modules use, and test runners treat it as an external module.
    const outDir = path.join(nodeModules, ".cache", "local-backend");
    mkdirSync(outDir, { recursive: true });
    const outFile = path.join(outDir, `convex-test-${PINNED_CONVEX_TEST_VERSION}-internals.mjs`);
    const tmp = `${outFile}.${process.pid}.tmp`;
    writeFileSync(tmp, source);
    renameSync(tmp, outFile);
    return (await import(pathToFileURL(outFile).href)) as ConvexTestInternals;
  })();
  return loaded;
}
