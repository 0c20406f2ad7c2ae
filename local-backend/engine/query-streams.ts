// A transaction's query streams (`1.0/queryStream` → `1.0/queryStreamNext`), pages (`1.0/queryPage`)
// and counts (`1.0/count`), for the engine's syscalls (engine/transaction.ts) and convex-test's runs
// alike (its syscalls and ctx.db's direct reads, see convex-test-internals.ts). A stream reads its
// source as the transaction sees it when it starts: an index range or the whole table from the index
// trees (engine/index-query.ts), a text search ranked as Convex ranks it (engine/text-search.ts). A
// page is Convex's (engine/pagination.ts); a function execution may ask for one only.
import { getDocumentSize, type Value } from "convex/values";
import type { Doc } from "./document-store.ts";
import type { IndexQueries, QueryJson } from "./index-query.ts";
import {
  pageRequestOf,
  readPage,
  rowsAfterIn,
  type OrderedRow,
  type PageArgs,
  type PageResult,
} from "./pagination.ts";
import { searchRows, type SearchFilter, type SearchIndexDefinition } from "./text-search.ts";

/** Convex's refusal of a second `.paginate()` in one function execution. */
export const PAGINATE_ONCE =
  "Only a single paginated query (`.paginate()`) is allowed per function execution. Calling " +
  "`.paginate()` more than once in a single Convex function fails at runtime in a deployed " +
  "backend. This is a Convex limit: https://docs.convex.dev/database/pagination";

/** A function execution's count of `.paginate()` calls (convex-test's execution context carries one). */
export interface PaginatedQueries {
  paginatedQueries: number;
}

/** Counts one more `.paginate()` of `execution`: Convex allows one per function execution. */
export function countPaginate(execution: PaginatedQueries | undefined) {
  if (execution !== undefined && ++execution.paginatedQueries > 1) throw new Error(PAGINATE_ONCE);
}

/** What the streams need besides the index trees. */
export interface StreamSources {
  /** A table's text search index as the schema declares it. */
  searchIndex(table: string, name: string): SearchIndexDefinition | undefined;
  /** A query's `.filter()` on one document (engine/query-filters.ts). */
  evaluateFilter(doc: Doc, filter: unknown): unknown;
}

/** A text search's results in Convex's order, with the query's filters and limit. */
interface SearchResults {
  rows: OrderedRow<Doc>[];
  matches: (doc: Doc) => boolean;
  limit: number | null;
}

const documentSize = (doc: Doc) => getDocumentSize(doc as Record<string, Value>);

export class QueryStreams {
  /** The next stream's id: never reused, so a stream of an ended transaction is never another's. */
  private nextId = 1;
  /** The open transaction's streams by id, until they end or the transaction does. */
  private readonly open = new Map<number, Iterator<Doc>>();

  constructor(
    private readonly queries: IndexQueries,
    private readonly sources: StreamSources,
  ) {}

  /** `1.0/queryStream`: a stream of the query's documents, read as the stream is pulled; its id. */
  start(query: QueryJson): number {
    const id = this.nextId++;
    this.open.set(id, this.stream(query));
    return id;
  }

  /** `1.0/queryStreamNext`: the stream's next document; a stream that is done is closed. */
  next(queryId: number): { value: Doc | null; done: boolean } {
    const stream = this.open.get(queryId);
    if (stream === undefined) throw new Error("Bad queryId");
    const next = stream.next();
    if (next.done) {
      this.open.delete(queryId);
      return { value: null, done: true };
    }
    return { value: next.value, done: false };
  }

  /** `1.0/queryPage`: one page of the query (Convex's semantics), counted against `execution`'s one. */
  paginate(args: PageArgs<QueryJson>, execution?: PaginatedQueries): PageResult<Doc> {
    countPaginate(execution);
    const source = args.query.source;
    if (this.queries.handles(source)) return this.queries.paginate({ ...args, documentSize });
    const { rows, matches } = this.search(args.query);
    return readPage(
      {
        rowsAfter: (after) => rowsAfterIn(rows, after, "asc"),
        order: "asc",
        matches,
        size: documentSize,
        splittable: false,
      },
      pageRequestOf(args),
    );
  }

  /** `1.0/count`: the documents of a table the transaction sees. */
  count(table: string): number {
    const scan = this.stream({
      source: { type: "FullTableScan", tableName: table, order: "asc" },
      operators: [],
    });
    let count = 0;
    while (!scan.next().done) count += 1;
    return count;
  }

  /** The transaction ended: its streams go. */
  clear() {
    this.open.clear();
  }

  private stream(query: QueryJson): Iterator<Doc> {
    if (this.queries.handles(query.source)) return this.queries.stream(query);
    // a search's results are ranked as a whole: taken when the stream starts
    const { rows, matches, limit } = this.search(query);
    const docs = rows.map((row) => row.doc).filter(matches);
    return (limit === null ? docs : docs.slice(0, limit))[Symbol.iterator]();
  }

  /** A text search (`withSearchIndex`); any other source has no rows. */
  private search(query: QueryJson): SearchResults {
    const operators = query.operators.flatMap((op) => ("filter" in op ? [op.filter] : []));
    const limit = query.operators.find((op) => "limit" in op);
    const evaluateFilter = this.sources.evaluateFilter;
    const results = {
      matches: (doc: Doc) => operators.every((f) => evaluateFilter(doc, f)),
      limit: limit && "limit" in limit ? limit.limit : null,
    };
    if (query.source.type !== "Search") return { ...results, rows: [] };
    const indexName = query.source.indexName ?? "";
    const [table, index] = indexName.split(".");
    const definition = this.sources.searchIndex(table, index);
    if (!definition)
      throw new Error(
        `Cannot use search index "${index}" for table "${table}" because it is not declared in the schema.`,
      );
    const filters = (query.source as { filters?: SearchFilter[] }).filters ?? [];
    const rows = searchRows(this.queries.tableScan(table), indexName, definition, filters);
    return { ...results, rows };
  }
}
