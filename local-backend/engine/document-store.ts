// The deployment's documents: the committed ones by id, and under them the open transaction's levels
// (engine/write-layers.ts: pending writes; engine/indexes.ts: the index trees built from the schema,
// engine/schema.ts), which SerialTransactions begins, merges and drops (engine/serial-transactions.ts).
// Reads and writes by id with Convex's checks are engine/document-writes.ts, query streams, pages and
// counts engine/query-streams.ts; a commit applies the writes, resolves commit-timestamp placeholders and
// calls back (the log record, the query cache). Stored files' bytes are kept here too (engine/files.ts).
import { committedValue } from "./convex-values.ts";
import { DocumentWrites, type DocumentIds } from "./document-writes.ts";
import { FileStore } from "./files.ts";
import { IndexQueries } from "./index-query.ts";
import { IndexStore, type IndexTree } from "./indexes.ts";
import { evaluateFilter, validateIndexRangeExpression } from "./query-filters.ts";
import { QueryStreams } from "./query-streams.ts";
import type { IndexDefinitions, Schema } from "./schema.ts";
import type { LevelledStore } from "./serial-transactions.ts";
import type { TransactionStore } from "./transaction.ts";
import type { VectorIndex } from "./vector-search.ts";
import { WriteLayers, type Writes } from "./write-layers.ts";

/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- a document's fields are any value */
export type Doc = Record<string, any> & { _id: string; _creationTime: number };

export interface DatabaseHooks {
  /** After every commit that applies writes to the database (top level), with each written doc's old version. */
  afterCommit(commitTs: bigint, before: Map<string, Doc | null>): void;
  /** Convex's checks of a document about to be written (size, nesting, system fields); throws why not. */
  checkWrite(id: string, doc: Doc): void;
}

/** A transaction's levels taken away while a snapshot query runs. */
export interface StashedLevels {
  writes: Writes[];
  trees: Map<string, IndexTree>[];
}

export class DocumentStore implements LevelledStore<StashedLevels> {
  /** Every index as a sorted tree (engine/indexes.ts), kept by instrument(). */
  private store: IndexStore | undefined;
  /** The deployment's schema (engine/schema.ts); null without one. */
  private schema: Schema | null = null;
  /** The stored files' bytes (engine/files.ts): a file is there while its `_storage` document is committed. */
  private readonly files = new FileStore((storageId) => this.committed.has(storageId));

  private ids: DocumentIds | undefined;
  private hooks: DatabaseHooks | undefined;
  /** The committed documents by id. */
  private readonly committed = new Map<string, Doc>();
  /** Reads and writes by id with Convex's checks; set by useTableIds. */
  private writes: DocumentWrites | undefined;
  /** Kept in the log and snapshots for data directories of before (ids are random now: it never moves). */
  private nextDocId = 10000;
  /** The open transaction's pending writes, one layer per level. */
  private readonly pending = new WriteLayers();
  /** Levels stashed while a snapshot query runs: the transaction is still open. */
  private stashed = 0;
  /** The open transaction's query streams, pages and counts (engine/query-streams.ts); set by instrument(). */
  private streams: QueryStreams | undefined;
  private queries: IndexQueries | undefined;

  /**
   * Ids in Convex's format from now on: inserts get a fresh random id (never one that exists), and
   * reads, writes, v.id and normalizeId check an id's checksum and table as Convex does.
   */
  useTableIds(ids: DocumentIds) {
    this.ids = ids;
    const lastCreationTime = this.writes?.lastCreationTime ?? 0;
    this.writes = new DocumentWrites({
      ids,
      visible: (id) => this.visible(id),
      taken: (id) => this.committed.has(id) || this.pending.written(id) !== undefined,
      write: (id, value) => this.write(id, value),
      documentType: (table) => this.schema?.documentType(table),
      // Every written document passes Convex's document checks (size, nesting, system fields).
      checkWrite: (id, doc) => this.hooks?.checkWrite(id, doc),
    });
    this.writes.lastCreationTime = lastCreationTime;
  }

  tableOf(id: string): string {
    return this.ids?.tableOf(id) ?? "";
  }

  /**
   * Convex's checks of a `db.get` / `db.system.get` beyond the id itself: a system table's document
   * only through db.system, a user table's never through it.
   */
  checkGet(args: { id?: unknown; table?: unknown; isSystem?: unknown }) {
    if (typeof args.id !== "string" || !this.ids) return;
    const table = this.ids.tableOf(args.id);
    if (table === null) return;
    if (table.startsWith("_") && args.isSystem !== true)
      throw new Error("System tables can only be accessed with db.system.");
    if (!table.startsWith("_") && args.isSystem === true)
      throw new Error("User tables cannot be accessed with db.system.");
  }

  /** An id as db.get/patch/replace/delete check it (engine/document-writes.ts); throws why it is refused. */
  checkId(table: string, id: unknown) {
    this.writes!.checkId(table, id);
  }

  /** A committed document. */
  get(id: string): Doc | null {
    return this.committed.get(id) ?? null;
  }

  /** The store as a transaction reads and writes it (engine/transaction.ts). */
  transactionStore(): TransactionStore {
    const writes = this.writes!;
    const streams = this.streams!;
    return {
      get: (table, id) => writes.get(table, id),
      insert: (table, value) => writes.insert(table, value),
      patch: (table, id, value) => writes.patch(table, id, value),
      replace: (table, id, value) => writes.replace(table, id, value),
      delete: (table, id) => writes.delete(table, id),
      startQuery: (query) => streams.start(query),
      queryNext: (queryId) => streams.next(queryId),
      paginate: (args) => streams.paginate(args),
      count: (table) => streams.count(table),
    };
  }

  /** The committed documents of one table, in creation order. */
  tableDocuments(table: string): Iterable<Doc> {
    return this.store?.committedDocs(table) ?? [];
  }

  /** Every committed document (a copy of the list: commits may follow while it is read). */
  documents(): Doc[] {
    return [...this.committed.values()];
  }

  /** A stored file's bytes; undefined when it is not (or no longer) stored. */
  file(storageId: string): Blob | undefined {
    return this.files.get(storageId);
  }

  /** Keeps a file's bytes under its storage id (its `_storage` document is written). */
  putFile(storageId: string, blob: Blob) {
    this.files.put(storageId, blob);
  }

  /** Swaps a stored file's Blob for one with the same bytes (read from disk instead of held in memory). */
  replaceFile(storageId: string, blob: Blob) {
    this.files.replace(storageId, blob);
  }

  /** Real Convex keeps the content type on the `_storage` document. */
  setContentType(storageId: string, contentType: string) {
    const doc = this.committed.get(storageId);
    if (!doc) return;
    const updated = { ...doc, contentType };
    this.committed.set(storageId, updated);
    this.store?.replaceEverywhere("_storage", doc, updated);
  }

  vectorIndex(table: string, name: string): VectorIndex | undefined {
    return this.schema?.vectorIndex(table, name);
  }

  indexes(): IndexDefinitions {
    return this.schema?.indexes() ?? new Map();
  }

  /** The schema's indexes, search indexes and validators from now on (at start, a reload, a push). */
  useSchema(schema: Schema | null) {
    this.schema = schema;
    if (this.store) this.rebuildIndexes();
  }

  /** Set when the indexes must be rebuilt as soon as the open transaction ends. */
  private rebuildPending = false;

  /** Builds every index anew from the committed documents (schema change, restore). */
  private rebuildIndexes() {
    // an open transaction keeps the trees it writes into until it ends
    if (this.inTransaction) {
      this.rebuildPending = true;
      return;
    }
    this.rebuildPending = false;
    const store = new IndexStore(this.indexes());
    store.rebuild(this.committed.values(), (id) => this.tableOf(id));
    this.store = store;
  }

  counters(): { nextDocId: number; lastCreationTime: number } {
    return { nextDocId: this.nextDocId, lastCreationTime: this.writes?.lastCreationTime ?? 0 };
  }

  /** Loads persisted state: documents keep their ids and creation times; counters only move forward. */
  restore(state: {
    docs: Iterable<Doc>;
    files: Map<string, Blob>;
    nextDocId: number;
    lastCreationTime: number;
  }) {
    for (const doc of state.docs) this.committed.set(doc._id, doc);
    this.files.restore(state.files);
    this.nextDocId = Math.max(this.nextDocId, state.nextDocId);
    const writes = this.writes!;
    writes.lastCreationTime = Math.max(writes.lastCreationTime, state.lastCreationTime);
    if (this.store) this.rebuildIndexes();
  }

  instrument(hooks: DatabaseHooks) {
    this.hooks = hooks;
    this.rebuildIndexes();
    this.queries = new IndexQueries(() => this.store!, {
      evaluateFilter,
      validateIndexRangeExpression,
    });
    // index ranges and table scans read the trees, text search is ranked as Convex ranks it
    // (engine/text-search.ts)
    this.streams = new QueryStreams(this.queries, {
      searchIndex: (table, name) => this.schema?.searchIndex(table, name),
      evaluateFilter,
    });
  }

  /** The open transaction's query streams (convex-test's runs read through them too). */
  get queryStreams(): QueryStreams {
    return this.streams!;
  }

  /** Every document of a table the open transaction sees, in creation order. */
  visibleDocuments(table: string): Iterable<Doc> {
    return this.queries!.tableScan(table);
  }

  /** A write into the innermost level and its clones of the index trees it touches. */
  private write(id: string, value: Doc | null) {
    const before = this.visible(id);
    this.pending.write(id, value);
    this.store!.write(this.tableOf(id), before, value);
  }

  /** A document as the open transaction sees it: its levels' pending write, else the committed one. */
  private visible(id: string): Doc | null {
    const written = this.pending.written(id);
    return written !== undefined ? written : (this.committed.get(id) ?? null);
  }

  beginLevel() {
    this.pending.begin();
    this.store!.beginLevel();
  }

  /**
   * Ends the innermost level keeping its writes: merged into the level below, or, for the outermost,
   * applied to the documents and trees at `commitTs` (a value written as the commit's timestamp becomes
   * it), then `afterCommit` with each written document's version before.
   */
  commitLevel(commitTs: bigint | null) {
    const writes = this.pending.commit();
    this.store!.commitLevel();
    if (writes === null) return;
    const before = new Map<string, Doc | null>();
    const documents = this.committed;
    for (const [id, write] of writes) {
      before.set(id, documents.get(id) ?? null);
      if (write === null) {
        documents.delete(id);
        // a deleted `_storage` document's bytes go with it
        this.files.delete(id);
      } else documents.set(id, commitTs === null ? write : committedValue(write, commitTs));
    }
    this.transactionEnded();
    // a value written as the commit's timestamp is only known now: its documents are new objects
    for (const [id, write] of writes) {
      const committed = documents.get(id);
      if (write !== null && committed !== undefined && committed !== write)
        this.store!.replaceEverywhere(this.tableOf(id), write, committed);
    }
    if (commitTs !== null) this.hooks!.afterCommit(commitTs, before);
  }

  /** Ends the innermost level dropping its writes. */
  rollbackLevel() {
    this.pending.rollback();
    this.store!.rollbackLevel();
    if (!this.inTransaction) this.transactionEnded();
  }

  stashLevels(): StashedLevels {
    this.stashed += 1;
    return { writes: this.pending.stash(), trees: this.store!.stash() };
  }

  unstashLevels(stashed: StashedLevels) {
    this.stashed -= 1;
    this.pending.unstash(stashed.writes);
    this.store!.unstash(stashed.trees);
  }

  /** Whether a transaction is open: a level, or levels stashed while a snapshot query runs. */
  private get inTransaction(): boolean {
    return this.pending.depth > 0 || this.stashed > 0;
  }

  /** No transaction is open: its query streams go, and a schema change waiting for it rebuilds the indexes. */
  private transactionEnded() {
    this.streams?.clear();
    if (this.rebuildPending) this.rebuildIndexes();
  }
}
