// Queries on the index trees: what convex-test's DatabaseFake.startQuery computes (same results and
// errors) and Convex's pages (engine/pagination.ts), with each range read from its index in O(log n + k)
// instead of scanning and sorting the table. `take(n)`, `first()` and `unique()` stop after n matches.
import { jsonToConvex, type JSONValue } from "convex/values";
import type { Doc } from "./document-store.ts";
import { fieldGetter } from "./index-order.ts";
import { compareProbes, Probe, type Index, type IndexStore } from "./indexes.ts";
import { pageRequestOf, readPage, type PageArgs, type PageResult } from "./pagination.ts";

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

/** How a query's filters and index ranges are read (engine/query-filters.ts). */
export interface QueryEvaluation {
  evaluateFilter(doc: Doc, filter: unknown): unknown;
  validateIndexRangeExpression(source: QuerySourceJson, fields: string[]): void;
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

  /** Whether this source is served here (text search is engine/query-streams.ts's). */
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

  /**
   * DatabaseFake._evaluateQuery's documents (in order, at most the query's limit), read as the stream
   * is pulled: a query that stops early (a loop that breaks) walks only what it used. The stream reads a copy-on-write clone of the tree (O(1)),
   * so the transaction's own writes after it started do not move it, as `evaluate`'s snapshot did.
   */
  stream(query: QueryJson): Iterator<Doc> {
    const { index, lower, upper, filter, limit, order } = this.resolve(query);
    const docs = index.scan(this.store.visible(index).clone(), lower, upper, order);
    return (function* () {
      let count = 0;
      if (limit === 0) return;
      for (const doc of docs) {
        if (!filter(doc)) continue;
        yield doc;
        if (limit !== null && ++count >= limit) return;
      }
    })();
  }

  /**
   * `.paginate()` (engine/pagination.ts, Convex's page semantics) over the index range: a page's scan
   * seeks the cursor's position in the index and reads only the rows it returns.
   */
  paginate(args: PageArgs<QueryJson> & { documentSize: (doc: Doc) => number }): PageResult<Doc> {
    const { index, lower, upper, filter, order } = this.resolve(args.query);
    const visible = this.store.visible(index);
    const getters = index.keyFields.map(fieldGetter);
    return readPage(
      {
        rowsAfter: (after) => {
          let [from, to] = [lower, upper];
          if (after !== null && order === "asc") {
            const probe = new Probe(after, 1);
            if (compareProbes(probe, lower) > 0) from = probe;
          } else if (after !== null) {
            const probe = new Probe(after, -1);
            if (compareProbes(probe, upper) < 0) to = probe;
          }
          const docs = index.scan(visible, from, to, order);
          return (function* () {
            for (const doc of docs) yield { doc, key: getters.map((get) => get(doc)) };
          })();
        },
        order,
        matches: filter,
        size: args.documentSize,
        splittable: true,
      },
      pageRequestOf(args),
    );
  }
}
