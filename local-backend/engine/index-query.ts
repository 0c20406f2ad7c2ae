// Queries on the index trees: what convex-test's DatabaseFake.startQuery and paginate compute (same
// results, errors, cursors and page statuses), with each range read from its index in O(log n + k)
// instead of scanning and sorting the table. `take(n)`, `first()` and `unique()` stop after n matches.
import { jsonToConvex, type JSONValue } from "convex/values";
import type { Doc } from "./convex-test-internals.ts";
import { compareProbes, Probe, type Index, type IndexStore } from "./indexes.ts";

export interface QuerySourceJson {
  type: string;
  tableName?: string;
  indexName?: string;
  order?: "asc" | "desc" | null;
  range?: { type: string; fieldPath: string; value: JSONValue }[];
}

export interface QueryJson {
  source: QuerySourceJson;
  operators: ({ filter: unknown } | { limit: number })[];
}

/** What the query path needs from convex-test. */
export interface QueryEvaluation {
  evaluateFilter(doc: Doc, filter: unknown): unknown;
  validateIndexRangeExpression(source: QuerySourceJson, fields: string[]): void;
  encodeCursor(doc: Doc, fieldPaths: string[]): string;
  docIsAfterCursor(doc: Doc, cursorKeys: unknown[], fieldPaths: string[], order: string): number;
}

/** A query value as convex-test reads it: `{$undefined: null}` is undefined. */
export function queryValue(json: JSONValue): unknown {
  if (json !== null && typeof json === "object" && !Array.isArray(json) && "$undefined" in json)
    return undefined;
  return jsonToConvex(json);
}

interface Resolved {
  index: Index;
  lower: Probe;
  upper: Probe;
  filter: (doc: Doc) => boolean;
  limit: number | null;
  order: "asc" | "desc";
}

export class IndexQueries {
  constructor(
    private readonly indexes: () => IndexStore,
    private readonly evaluation: QueryEvaluation,
  ) {}

  private get store(): IndexStore {
    return this.indexes();
  }

  /** Every document of `table` the transaction sees, in creation order. */
  tableScan(table: string): Iterable<Doc> {
    const index = this.store.index(table, "by_creation_time")!;
    return index.scan(this.store.visible(index), new Probe([], -1), new Probe([], 1), "asc");
  }

  /** Whether this source is served here (text search stays with convex-test). */
  handles(source: QuerySourceJson): boolean {
    return source.type === "IndexRange" || source.type === "FullTableScan";
  }

  private resolve(query: QueryJson): Resolved {
    const source = query.source;
    const order = source.order ?? "asc";
    let index: Index;
    let lower: Probe;
    let upper: Probe;
    if (source.type === "FullTableScan") {
      index = this.store.index(source.tableName!, "by_creation_time")!;
      lower = new Probe([], -1);
      upper = new Probe([], 1);
    } else {
      const [tableName, indexName] = source.indexName!.split(".");
      const found = this.store.index(tableName, indexName);
      if (found === undefined)
        throw new Error(
          `Cannot use index "${indexName}" for table "${tableName}" because ` +
            `it is not declared in the schema.`,
        );
      index = found;
      this.evaluation.validateIndexRangeExpression(source, index.keyFields);
      const eqs: unknown[] = [];
      let low: { value: unknown; inclusive: boolean } | undefined;
      let high: { value: unknown; inclusive: boolean } | undefined;
      for (const r of source.range ?? []) {
        const value = queryValue(r.value);
        if (r.type === "Eq") eqs.push(value);
        else if (r.type === "Gt" || r.type === "Gte") low = { value, inclusive: r.type === "Gte" };
        else high = { value, inclusive: r.type === "Lte" };
      }
      lower = low ? new Probe([...eqs, low.value], low.inclusive ? -1 : 1) : new Probe(eqs, -1);
      upper = high ? new Probe([...eqs, high.value], high.inclusive ? 1 : -1) : new Probe(eqs, 1);
    }
    const filters: unknown[] = [];
    let limit: number | null = null;
    for (const operator of query.operators) {
      if ("filter" in operator) filters.push(operator.filter);
      else if (limit === null && "limit" in operator) limit = operator.limit;
    }
    const evaluateFilter = this.evaluation.evaluateFilter;
    const filter =
      filters.length === 0
        ? () => true
        : (doc: Doc) => filters.every((f) => evaluateFilter(doc, f));
    return { index, lower, upper, filter, limit, order };
  }

  /** DatabaseFake._evaluateQuery: the matching documents in order, at most the query's limit. */
  evaluate(query: QueryJson): Doc[] {
    const { index, lower, upper, filter, limit, order } = this.resolve(query);
    const docs = index.scan(this.store.visible(index), lower, upper, order);
    const results: Doc[] = [];
    if (limit === 0) return results;
    for (const doc of docs) {
      if (!filter(doc)) continue;
      results.push(doc);
      if (limit !== null && results.length >= limit) break;
    }
    return results;
  }

  /** DatabaseFake.paginate, starting at the cursor's position in the index. */
  paginate(args: {
    query: QueryJson;
    cursor: string | null;
    endCursor?: string | null;
    pageSize: number;
    maximumRowsRead?: number;
    maximumBytesRead?: number;
    documentSize: (doc: Doc) => number;
  }) {
    const { query, cursor, endCursor, pageSize, maximumRowsRead, maximumBytesRead } = args;
    const { index, lower, upper, filter, order } = this.resolve(query);
    const cursorFields = index.keyFields;
    const parseCursor = (c: string | null | undefined): unknown[] | null =>
      c
        ? (JSON.parse(c) as (string | null)[]).map((k) =>
            k === null ? undefined : jsonToConvex(JSON.parse(k) as JSONValue),
          )
        : null;
    const { encodeCursor, docIsAfterCursor } = this.evaluation;
    const page: Doc[] = [];
    let continueCursor = "_end_cursor";
    let pageStatus: "SplitRequired" | "SplitRecommended" | null = null;
    let splitCursor: string | null = null;
    const done = () => ({
      page,
      isDone: continueCursor === "_end_cursor",
      continueCursor,
      splitCursor,
      pageStatus,
    });
    // Past the end: no document is after the end cursor.
    if (cursor === "_end_cursor") return done();
    const cursorKeys = parseCursor(cursor);
    const hasEndBoundary = !!endCursor && endCursor !== "_end_cursor";
    const endCursorKeys = hasEndBoundary ? parseCursor(endCursor) : null;
    // Only documents after the cursor: asc from it, desc down from it (while inside the range).
    let [from, to] = [lower, upper];
    if (cursorKeys && order === "asc") {
      const after = new Probe(cursorKeys, 1);
      if (compareProbes(after, lower) > 0) from = after;
    } else if (cursorKeys) {
      const before = new Probe(cursorKeys, -1);
      if (compareProbes(before, upper) < 0) to = before;
    }
    const docs = index.scan(this.store.visible(index), from, to, order);
    let rowsRead = 0;
    let bytesRead = 0;
    // documents read, for the split cursor (encoded only when one is given)
    const read: Doc[] = [];
    const size = (doc: Doc) => (maximumBytesRead ? args.documentSize(doc) : 0);
    const iterator = docs[Symbol.iterator]();
    let next = iterator.next();
    while (!next.done) {
      const doc = next.value;
      next = iterator.next();
      const isLastDoc = next.done === true;
      if (endCursorKeys) {
        const cmp = docIsAfterCursor(doc, endCursorKeys, cursorFields, order);
        if (cmp >= 0) {
          // at the end cursor: this document is the page's last
          if (cmp === 0) {
            rowsRead += 1;
            read.push(doc);
            if (filter(doc)) page.push(doc);
            continueCursor = encodeCursor(doc, cursorFields);
          }
          break;
        }
      }
      rowsRead += 1;
      bytesRead += size(doc);
      read.push(doc);
      const hitLimit =
        (!!maximumRowsRead && rowsRead >= maximumRowsRead) ||
        (!!maximumBytesRead && bytesRead >= maximumBytesRead);
      if (filter(doc)) page.push(doc);
      if (hitLimit) {
        pageStatus = "SplitRequired";
        continueCursor = encodeCursor(doc, cursorFields);
        break;
      }
      if (!endCursor && page.length >= pageSize) {
        if (!isLastDoc) continueCursor = encodeCursor(doc, cursorFields);
        break;
      }
    }
    const middle = () => encodeCursor(read[Math.floor((read.length - 1) / 2)], cursorFields);
    if (pageStatus === "SplitRequired" && read.length >= 2) {
      splitCursor = middle();
    } else if (pageStatus === null && rowsRead > pageSize + 1 && read.length >= 2) {
      pageStatus = "SplitRecommended";
      splitCursor = middle();
    }
    return done();
  }
}
