// convex-test, attached to an engine when a test or a benchmark asks for it (`Engine.convexTest`),
// never by the server: its runs (`t.run`, `t.query`/`t.mutation`/`t.action`) read and write the
// engine's document store in the engine's transactions, and their syscalls get the engine's additions
// (Convex's checks and texts, storage, the scheduler, vector search).
import type { JSONValue } from "convex/values";
import { currentFrame } from "./call-context.ts";
import {
  installProcessHooks,
  loadConvexTestInternals,
  useDocumentStore,
  useModuleLoader,
  type ConvexGlobal,
  type ConvexTestInternals,
  type TestAccessor,
} from "./convex-test-internals.ts";
import { checkArguments, checkResult, CONVEX_LIMITS, valueShapeError } from "./convex-values.ts";
import { documentForm, documentJson, documentSize } from "./document-json.ts";
import type { StashedLevels } from "./document-store.ts";
import type { Engine } from "./engine.ts";
import type { ModuleMap } from "./modules.ts";
import type { SerialTransactions } from "./serial-transactions.ts";
import { timed } from "./time-limit.ts";
import { storageMetadataJson, WRITE_SYSCALLS } from "./transaction.ts";
import type { VectorQuery } from "./vector-search.ts";

export interface ConvexTestAttachment {
  t: TestAccessor;
  global: ConvexGlobal;
  internals: ConvexTestInternals;
  /** Whether one of its runs has a transaction open in the current async context. */
  inTransaction(): boolean;
  detach(): void;
}

/** What of the engine convex-test's runs use beyond its public methods. */
export interface EngineParts {
  transactions: SerialTransactions<StashedLevels>;
  /** The modules convex-test is created with (it looks for their `_generated` directory). */
  modules: ModuleMap;
  /** The current modules by path without extension, relative to the functions' directory. */
  loadModule(modulePath: string): Promise<Record<string, unknown>>;
  tableOf(id: string): string | null;
}

export async function attachConvexTest(
  engine: Engine,
  parts: EngineParts,
): Promise<ConvexTestAttachment> {
  const internals = await loadConvexTestInternals();
  // convex-test gets no schema: indexes, validators and search indexes are the engine's
  const t = internals.convexTest({
    schema: undefined,
    modules: parts.modules,
    transactionLimits: true,
  });
  installProcessSeams(internals);
  const global = t._convexGlobal;
  global.transactionManager = parts.transactions;
  useModuleLoader(global, parts.loadModule);
  useDocumentStore(global, engine.database, parts.tableOf);
  engines.set(global, engine);
  return {
    t,
    global,
    internals,
    inTransaction: () => internals.nestedTxStorage.getStore() !== undefined,
    detach: () => engines.delete(global),
  };
}

const engines = new Map<ConvexGlobal, Engine>();

/** What convex-test's runs do through the engine, for every engine of the process (installed once). */
function installProcessSeams(internals: ConvexTestInternals) {
  const engineFor = () => {
    const store = internals.convexGlobalStorage.getStore();
    return store ? engines.get(store) : undefined;
  };
  /** An asynchronous syscall of a function convex-test runs, answered with the engine's additions. */
  async function convexTestSyscall(
    op: string,
    json: string,
    original: (op: string, json: string) => Promise<string>,
  ): Promise<string> {
    const engine = engineFor();
    const writer = WRITE_SYSCALLS[op];
    if (writer) {
      // Convex builds the written value before anything else: its shape limits come first.
      const shape = valueShapeError((JSON.parse(json) as { value?: JSONValue }).value);
      if (shape) throw new Error(`Invalid argument \`value\` for \`${writer}\`: ${shape}`);
    }
    if (engine && op === "1.0/get") engine.database.checkGet(JSON.parse(json));
    if (engine && op === "1.0/storageGetUrl") {
      const { storageId } = JSON.parse(json) as { storageId: string };
      const exists =
        engine.database.tableOf(storageId) === "_storage" &&
        engine.database.get(storageId) !== null;
      return JSON.stringify(exists ? engine.hooks.storageUrl(storageId) : null);
    }
    if (engine && op === "1.0/storageGenerateUploadUrl")
      return JSON.stringify(engine.hooks.uploadUrl());
    if (engine && op === "1.0/storageDelete") {
      await engine.deleteFile((JSON.parse(json) as { storageId: string }).storageId);
      return "{}";
    }
    if (engine && op === "1.0/storageGetMetadata")
      // read as db.system.get would, inside the caller's transaction
      return storageMetadataJson(
        json,
        (id) => engine.database.tableOf(id),
        (storageId) => original("1.0/get", JSON.stringify({ id: storageId, isSystem: true })),
      );
    if (engine && op === "1.0/actions/vectorSearch") {
      const { query } = JSON.parse(json) as { query: VectorQuery };
      return JSON.stringify({ results: engine.vectorSearch(query) });
    }
    return (engine && (await engine.schedulerSyscall(op, json))) ?? original(op, json);
  }
  installProcessHooks(internals, {
    syscall(op, json, original) {
      const transaction = currentFrame()?.transaction;
      if (transaction !== undefined) {
        const answer = transaction.syscall(op, json);
        if (answer === undefined) throw new Error(`Unknown operation ${op}`);
        return answer;
      }
      return original(op, json);
    },
    async asyncSyscall(op, json, original) {
      const transaction = currentFrame()?.transaction;
      if (transaction !== undefined) {
        const answer = transaction.asyncSyscall(op, json);
        if (answer === undefined) throw new Error(`Unknown async operation ${op}`);
        return answer;
      }
      return convexTestSyscall(op, json, original);
    },

    // An action's ctx.storage.store and ctx.storage.get, as convex-test runs it (t.run's ctx.storage too).
    async jsSyscall(op, args: { blob: Blob; storageId: string }, original) {
      const engine = engineFor();
      if (engine && op === "storage/storeBlob") return engine.storeBlob(args.blob);
      if (engine && op === "storage/getBlob") return engine.getFile(args.storageId);
      return original(op, args);
    },

    // A document read when ctx.db hands it over as an object (convex-test-internals.ts writeDirectDatabase).
    directAsyncSyscall(op, args, original) {
      if (op === "1.0/get") engineFor()?.database.checkGet(args);
      return original(op, args);
    },

    checkArgs: checkArguments,
    checkResult,
    docJson: documentJson,
    docSize: documentSize,
    docForm: documentForm,
    timed: (isNested, run) =>
      isNested
        ? run()
        : timed(engineFor()?.limits.queryMutationMs ?? CONVEX_LIMITS.queryMutationMs, run),
  });
}
