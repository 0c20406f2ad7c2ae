// The engine's own answers to the syscalls of a query or mutation it invokes through convex/server's
// `invokeQuery` / `invokeMutation` (see Engine.invoke): reads, writes, ids, identity and storage URLs
// against the engine's document store and indexes, with the read set and Convex's transaction metrics.
// Nested `ctx.runQuery` / `ctx.runMutation` by name go to the engine (Engine.runUdf), `ctx.scheduler`'s
// calls to engine/scheduler.ts. The transaction's levels and commit are the engine's
// (engine/serial-transactions.ts, engine/write-layers.ts), and so are
// the committed documents (engine/document-store.ts) and the reads and writes by id with their checks
// (engine/document-writes.ts), and so are `ctx.meta`'s metadata and transaction metrics
// (engine/function-metadata.ts), and functions by handle (engine/function-address.ts).
import {
  convexToJson,
  getConvexSize,
  jsonToConvex,
  type JSONValue,
  type Value,
} from "convex/values";
import type { Doc } from "./document-store.ts";
import type { ReadSet } from "./read-set.ts";
import { valueShapeError } from "./convex-values.ts";
import { decodeId } from "./ids.ts";
import type { QueryJson } from "./index-query.ts";
import type { PageArgs, PageResult } from "./pagination.ts";
import { countPaginate, type PaginatedQueries } from "./query-streams.ts";
import type { ScheduleArgs, Scheduler } from "./scheduler.ts";
import { metadataSyscall, type FunctionRun } from "./function-metadata.ts";
import { addressedPath, functionHandleJson, type FunctionAddress } from "./function-address.ts";

/** The metrics Convex bills a transaction by (engine/transaction-metrics.ts). */
export interface MetricsTracker {
  trackRead(bytes: number): void;
  trackWrite(bytes: number): void;
  trackIndexRange(): void;
  trackScheduledFunction(argsBytes: number): void;
  /** Each metric's use and what remains of its limit (`ctx.meta.getTransactionMetrics()`). */
  getTransactionMetrics?(): Record<string, { used: number; remaining: number }>;
}

/**
 * The document store as a transaction sees it (engine/document-store.ts): reads and writes by id
 * (engine/document-writes.ts over the write layers), query streams, pages and counts
 * (engine/query-streams.ts over the index trees).
 */
export interface TransactionStore {
  get(table: string | undefined, id: string): Doc | null;
  insert(table: string, value: Record<string, Value>): string;
  patch(table: string | undefined, id: string, value: Record<string, JSONValue>): void;
  replace(table: string | undefined, id: string, value: Record<string, JSONValue>): void;
  delete(table: string | undefined, id: string): void;
  startQuery(query: QueryJson): number;
  queryNext(queryId: number): { value: Doc | null; done: boolean };
  paginate(args: PageArgs<QueryJson>): PageResult<Doc>;
  count(table: string): number;
}

/** What a transaction's syscalls need from the engine. */
export interface TransactionHost {
  store: TransactionStore;
  tracker(): MetricsTracker | null;
  /** `ctx.meta.getSnapshotTs()`: the latest commit the transaction sees. */
  snapshotTs(): bigint;
  /** The table of a valid id of this deployment, else null. */
  tableOf(id: string): string | null;
  /** db.get's checks beyond the id (system tables only through db.system). */
  checkGet(args: { id?: unknown; isSystem?: unknown }): void;
  /** A document's JSON text and size, computed once per version. */
  docJson(doc: Doc): string;
  docSize(doc: Doc): number;
  storageUrl(storageId: string): string;
  uploadUrl(): string;
  /** Answers `ctx.scheduler`'s syscalls in the transaction (engine/scheduler.ts). */
  scheduler: Scheduler;
  /** Runs `ctx.runQuery` / `ctx.runMutation` of `caller` in a nested level of its transaction; its JSON result. */
  runUdf(caller: TransactionSyscalls, call: RunUdfArgs & { name: string }): Promise<string>;
}

/** `1.0/runUdf`'s arguments (registration_impl.js runUdf): the function by name, reference or handle. */
export interface RunUdfArgs extends FunctionAddress {
  udfType: "query" | "mutation" | "snapshotQuery";
  args: JSONValue;
  /** Lower limits for the nested call's own reads and writes (engine/transaction-metrics.ts). */
  transactionLimits?: Record<string, number>;
}

/**
 * `ctx.storage.getMetadata` as Convex answers it: `{storageId, sha256 (hex), size, contentType}` or null.
 * `read` reads the `_storage` document as `db.system.get` would (as JSON text, or null).
 */
export async function storageMetadataJson(
  json: string,
  tableOf: (id: string) => string | null,
  read: (storageId: string) => string | Promise<string>,
): Promise<string> {
  const { storageId } = JSON.parse(json) as { storageId: unknown };
  if (typeof storageId !== "string")
    throw new Error(
      `Invalid argument \`storageId\` for \`storage.getMetadata\`: expected a string, got ${typeof storageId}`,
    );
  if (tableOf(storageId) !== "_storage") {
    const decoded = decodeId(storageId);
    if ("error" in decoded)
      throw new Error(
        `Invalid argument \`storageId\` for \`storage.getMetadata\`: Unable to decode ID: ${decoded.error}`,
      );
    return "null";
  }
  const doc = jsonToConvex(JSON.parse(await read(storageId))) as {
    sha256: string;
    size: number;
    contentType?: string;
  } | null;
  if (doc === null) return "null";
  return JSON.stringify({
    storageId,
    sha256: Buffer.from(doc.sha256, "base64").toString("hex"),
    size: doc.size,
    contentType: doc.contentType ?? null,
  });
}

/** Convex's name of the value each write syscall takes, as its argument errors say. */
export const WRITE_SYSCALLS: Record<string, string | undefined> = {
  "1.0/insert": "db.insert",
  "1.0/shallowMerge": "db.patch",
  "1.0/replace": "db.replace",
};

/** One query's or mutation's execution: its syscalls, its read set and its `.paginate()` journal. */
export class TransactionSyscalls {
  private readonly execution: PaginatedQueries = { paginatedQueries: 0 };

  constructor(
    private readonly host: TransactionHost,
    /** The caller's identity; throws why when its token was refused (engine.ts refusedIdentity). */
    private readonly identity: () => Record<string, unknown> | null,
    private readonly readSet: ReadSet | undefined,
    /** A subscribed query's journal: the end cursor its page had (`previous`) and has now (`next`). */
    private readonly journal: { previous: string | null; next: string | null } | undefined,
    /** The function running (its metadata syscalls' answers). */
    private readonly run: FunctionRun & { udfType: "query" | "mutation" },
  ) {}

  /**
   * The syscalls of a function this one calls with ctx.runQuery / ctx.runMutation: same caller, read set
   * and request metadata.
   */
  nested(udfPath: string, udfType: "query" | "mutation"): TransactionSyscalls {
    return new TransactionSyscalls(this.host, this.identity, this.readSet, undefined, {
      udfPath,
      udfType,
      request: this.run.request,
    });
  }

  /** A synchronous syscall's JSON answer; undefined for one the engine leaves to convex-test. */
  syscall(op: string, json: string): string | undefined {
    switch (op) {
      case "1.0/queryStream": {
        const { query } = JSON.parse(json) as { query: QueryJson };
        this.readSet?.addQuery(query);
        this.host.tracker()?.trackIndexRange();
        return `{"queryId":${this.host.store.startQuery(query)}}`;
      }
      case "1.0/queryCleanup":
        return "{}";
      case "1.0/getSnapshotTs":
        return JSON.stringify(convexToJson(this.host.snapshotTs()));
      case "1.0/db/normalizeId": {
        const { table, idString } = JSON.parse(json) as { table: string; idString: unknown };
        const valid = typeof idString === "string" && this.host.tableOf(idString) === table;
        return JSON.stringify({ id: valid ? idString : null });
      }
    }
    return undefined;
  }

  /** An asynchronous syscall's JSON answer; undefined for one the engine leaves to convex-test. */
  asyncSyscall(op: string, json: string): string | Promise<string> | undefined {
    const { host } = this;
    switch (op) {
      case "1.0/get": {
        const args = JSON.parse(json) as { table?: string; id: string; isSystem?: boolean };
        this.readSet?.ids.add(args.id);
        host.checkGet(args);
        const tracker = host.tracker();
        tracker?.trackIndexRange();
        const doc = host.store.get(args.table, args.id);
        if (doc === null) return "null";
        tracker?.trackRead(host.docSize(doc));
        return host.docJson(doc);
      }
      case "1.0/queryStreamNext": {
        const { queryId } = JSON.parse(json) as { queryId: number };
        const { value, done } = host.store.queryNext(queryId);
        if (done || value === null) return `{"value":null,"done":${done}}`;
        host.tracker()?.trackRead(host.docSize(value));
        return `{"value":${host.docJson(value)},"done":false}`;
      }
      case "1.0/queryPage":
        return this.queryPage(JSON.parse(json) as Record<string, unknown> & { query: QueryJson });
      case "1.0/insert": {
        const { table, value } = this.written(op, json) as { table: string; value: JSONValue };
        const id = host.store.insert(table, jsonToConvex(value) as Record<string, Value>);
        host.tracker()?.trackWrite(getConvexSize(host.store.get(table, id)));
        return JSON.stringify({ _id: id });
      }
      case "1.0/shallowMerge":
      case "1.0/replace": {
        const { table, id, value } = this.written(op, json) as {
          table?: string;
          id: string;
          value: Record<string, JSONValue>;
        };
        this.readBeforeWrite(table, id);
        if (op === "1.0/replace") host.store.replace(table, id, value);
        else host.store.patch(table, id, value);
        host.tracker()?.trackWrite(getConvexSize(host.store.get(table, id)));
        return "{}";
      }
      case "1.0/remove": {
        const { table, id } = JSON.parse(json) as { table?: string; id: string };
        this.readBeforeWrite(table, id);
        host.store.delete(table, id);
        host.tracker()?.trackWrite(0);
        return "{}";
      }
      case "1.0/getUserIdentity": {
        if (this.readSet) this.readSet.identity = true;
        return JSON.stringify(this.identity());
      }
      case "1.0/storageGetUrl": {
        const { storageId } = JSON.parse(json) as { storageId: string };
        this.readSet?.ids.add(storageId);
        const exists =
          typeof storageId === "string" &&
          host.tableOf(storageId) === "_storage" &&
          host.store.get("_storage", storageId) !== null;
        return JSON.stringify(exists ? host.storageUrl(storageId) : null);
      }
      case "1.0/storageGenerateUploadUrl":
        return JSON.stringify(host.uploadUrl());
      case "1.0/storageGetMetadata":
        return storageMetadataJson(
          json,
          (id) => host.tableOf(id),
          // read as db.system.get: into the read set and the transaction's metrics
          (storageId) =>
            this.asyncSyscall("1.0/get", JSON.stringify({ id: storageId, isSystem: true }))!,
        );
      case "1.0/storageDelete": {
        // the `_storage` document goes in this transaction; its file goes once the delete commits
        const { storageId } = JSON.parse(json) as { storageId: string };
        this.readBeforeWrite("_storage", storageId);
        host.store.delete("_storage", storageId);
        host.tracker()?.trackWrite(0);
        return "{}";
      }
      case "1.0/count": {
        const { table } = JSON.parse(json) as { table: string };
        this.readSet?.tables.add(table);
        return JSON.stringify(host.store.count(table));
      }
      case "1.0/schedule":
        return host.scheduler.schedule(
          host.store,
          host.tracker(),
          JSON.parse(json) as ScheduleArgs,
        );
      case "1.0/runUdf": {
        const call = JSON.parse(json) as RunUdfArgs;
        return host.runUdf(this, { ...call, name: addressedPath(call) });
      }
      case "1.0/createFunctionHandle":
        return functionHandleJson(json);
      case "1.0/cancel_job":
        host.scheduler.cancel(host.store, (JSON.parse(json) as { id: string }).id);
        return "{}";
      case "1.0/getTransactionMetrics": {
        const metrics = host.tracker()?.getTransactionMetrics?.();
        if (metrics === undefined)
          throw new Error(
            "getTransactionMetrics() can only be called from a query or mutation. " +
              "It is not available in actions or outside of a Convex function.",
          );
        return JSON.stringify(metrics);
      }
    }
    return metadataSyscall(op, this.run);
  }

  /** A written value's arguments: Convex builds the value before anything else, so its shape limits come first. */
  private written(op: string, json: string): { value?: JSONValue } {
    const args = JSON.parse(json) as { value?: JSONValue };
    const shape = valueShapeError(args.value);
    if (shape)
      throw new Error(`Invalid argument \`value\` for \`${WRITE_SYSCALLS[op]}\`: ${shape}`);
    return args;
  }

  /** A patch, replace or delete reads the document first (and is billed for it), as convex-test does. */
  private readBeforeWrite(table: string | undefined, id: string) {
    const doc = this.host.store.get(table, id);
    if (doc !== null) this.host.tracker()?.trackRead(this.host.docSize(doc));
  }

  /** `.paginate()`: once per execution; a subscribed query keeps the end cursor its first run had. */
  private queryPage(args: Record<string, unknown> & { query: QueryJson }): string {
    countPaginate(this.execution);
    this.readSet?.addQuery(args.query);
    const journal = this.journal;
    // As Convex's query_page: an end cursor in the arguments wins over the journal's.
    const endCursor =
      (args.endCursor ?? null) === null ? (journal?.previous ?? null) : args.endCursor;
    const { query, cursor, pageSize, maximumRowsRead, maximumBytesRead } = args;
    const result = this.host.store.paginate({
      query,
      cursor,
      endCursor,
      pageSize,
      maximumRowsRead,
      maximumBytesRead,
    } as PageArgs<QueryJson>);
    if (journal) journal.next = result.continueCursor;
    const tracker = this.host.tracker();
    if (tracker) {
      tracker.trackIndexRange();
      for (const doc of result.page) tracker.trackRead(this.host.docSize(doc));
    }
    const rest: Record<string, unknown> = {
      isDone: result.isDone,
      continueCursor: result.continueCursor,
    };
    if (result.splitCursor !== undefined) rest.splitCursor = result.splitCursor;
    if (result.pageStatus !== undefined) rest.pageStatus = result.pageStatus;
    const page = result.page.map((doc) => this.host.docJson(doc)).join(",");
    return `{"page":[${page}],${JSON.stringify(rest).slice(1)}`;
  }
}
