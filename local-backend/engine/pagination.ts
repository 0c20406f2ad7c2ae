// `.paginate()` as Convex runs it (crates/isolate/src/environment/udf/async_syscall.rs `query_page`,
// crates/database/src/query/index_range.rs): a page is the range (cursor, endCursor] of the query's
// index order. Without an end cursor it stops after `pageSize` matches and its continueCursor is the
// position after the last row it read; with one (from the arguments, or from the query journal of the
// page's previous run) it reads the whole range whatever its size, so a page keeps its boundaries
// while documents come and go, and each run's continueCursor is that end cursor. Cursors name the
// query they belong to: one used with another query is an `InvalidCursor`, which makes
// `usePaginatedQuery` start over. Cursors are signed, as Convex's are encrypted: a cursor the backend did
// not issue (a hand-made end cursor asking for the whole range) is an `InvalidCursor` too. A page with an
// end cursor ignores numItems and maximumRowsRead/BytesRead as on Convex, but never reads past the
// transaction's read limits nor returns more than Convex's array limit: it stops there, SplitRequired.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { convexToJson, jsonToConvex, type Value } from "convex/values";
import { compareIndexValues } from "./index-order.ts";

/** A row of the query's source in the query's order, with its index key (index fields, then _id). */
export interface OrderedRow<D> {
  doc: D;
  key: unknown[];
}

export interface PageSource<D> {
  /** The query's rows in its order, from just after the row with key `after` (null: from the first). */
  rowsAfter(after: unknown[] | null): Iterable<OrderedRow<D>>;
  order: "asc" | "desc";
  /** The query's `.filter()`s. */
  matches(doc: D): boolean;
  /** A row's size in bytes, for maximumBytesRead. */
  size(doc: D): number;
  /** Index ranges offer a split cursor; search results do not (as on Convex). */
  splittable: boolean;
}

export interface PageRequest {
  /** Identifies the query (source and operators): a cursor of another query is refused. */
  fingerprint: string;
  cursor: string | null;
  endCursor: string | null;
  pageSize: number;
  maximumRowsRead: number | null;
  maximumBytesRead: number | null;
}

export interface PageResult<D> {
  page: D[];
  isDone: boolean;
  continueCursor: string;
  splitCursor: string | null;
  pageStatus: "SplitRecommended" | "SplitRequired" | null;
}

/** Convex's TRANSACTION_MAX_READ_SIZE_ROWS / _BYTES, and its soft limit (3/4) that recommends a split. */
const MAX_READ_ROWS = 32_000;
const MAX_READ_BYTES = 1 << 24;
/** Convex's array length limit: a page is returned as an array. */
const MAX_PAGE_LEN = 8192;
/** 3/4 of it: a longer page is recommended to split. */
const SOFT_MAX_PAGE_LEN = (MAX_PAGE_LEN * 3) / 4;
const soft = (limit: number) => Math.floor((limit * 3) / 4);

/** A position in the query's order: after the row with this key, or the end of the range. */
type Position = { after: unknown[] } | "end";

export class PaginationError extends Error {
  constructor(
    message: string,
    /** Set for InvalidCursor: what Convex sends as the ConvexError's data. */
    readonly data?: { isConvexSystemError: true; paginationError: "InvalidCursor" },
  ) {
    super(message);
  }
}

export function invalidCursor(): PaginationError {
  return new PaginationError(
    "InvalidCursor: Tried to run a query starting from a cursor, but it looks like this cursor is from a different query.",
    { isConvexSystemError: true, paginationError: "InvalidCursor" },
  );
}

/** `1.0/queryPage`'s arguments, as convex/server sends them (`Q`: the query's JSON). */
export interface PageArgs<Q = unknown> {
  query: Q;
  cursor: string | null;
  endCursor?: string | null;
  pageSize: number;
  maximumRowsRead?: number | null;
  maximumBytesRead?: number | null;
}

/** The page a paginate call asks for, from its arguments. */
export function pageRequestOf(args: PageArgs): PageRequest {
  return {
    fingerprint: queryFingerprint(args.query),
    cursor: args.cursor ?? null,
    endCursor: args.endCursor ?? null,
    pageSize: args.pageSize,
    maximumRowsRead: args.maximumRowsRead ?? null,
    maximumBytesRead: args.maximumBytesRead ?? null,
  };
}

/** A query's fingerprint: the same source, range, order and filters give the same one. */
export function queryFingerprint(query: unknown): string {
  return createHash("sha256").update(JSON.stringify(query)).digest("base64url").slice(0, 16);
}

/**
 * Keys that sign cursors: the first signs, any verifies. A process starts with a random one; a backend
 * adds the one from its data directory (`useCursorSecret`), so its cursors survive a restart.
 */
const cursorKeys: Buffer[] = [randomBytes(32)];

/** Signs cursors with `secret` from now on (still accepting those signed before, in this process). */
export function useCursorSecret(secret: string) {
  const key = createHmac("sha256", secret).update("local-backend pagination cursors").digest();
  const known = cursorKeys.findIndex((k) => k.equals(key));
  if (known >= 0) cursorKeys.splice(known, 1);
  cursorKeys.unshift(key);
}

const signature = (key: Buffer, payload: string) =>
  createHmac("sha256", key).update(payload).digest("base64url").slice(0, 22);

function encodeCursor(fingerprint: string, position: Position): string {
  const at =
    position === "end"
      ? null
      : position.after.map((v) => (v === undefined ? null : [convexToJson(v as Value)]));
  const payload = Buffer.from(JSON.stringify([fingerprint, at])).toString("base64url");
  return `${payload}.${signature(cursorKeys[0], payload)}`;
}

function decodeCursor(fingerprint: string, cursor: string): Position {
  const dot = cursor.indexOf(".");
  const payload = cursor.slice(0, dot);
  if (dot < 0 || !cursorKeys.some((key) => signature(key, payload) === cursor.slice(dot + 1)))
    throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || parsed[0] !== fingerprint)
    throw invalidCursor();
  const at = parsed[1] as unknown;
  if (at === null) return "end";
  if (!Array.isArray(at)) throw invalidCursor();
  try {
    return {
      after: at.map((v: unknown) => {
        if (v === null) return undefined;
        if (!Array.isArray(v) || v.length !== 1) throw invalidCursor();
        return jsonToConvex(v[0]);
      }),
    };
  } catch {
    throw invalidCursor();
  }
}

function compareKeys(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const c = compareIndexValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** The rows of an in-memory list (in the query's order) after the row with key `after`. */
export function rowsAfterIn<D>(
  rows: OrderedRow<D>[],
  after: unknown[] | null,
  order: "asc" | "desc",
): OrderedRow<D>[] {
  if (after === null) return rows;
  const direction = order === "asc" ? 1 : -1;
  return rows.filter((row) => compareKeys(row.key, after) * direction > 0);
}

export function readPage<D>(source: PageSource<D>, request: PageRequest): PageResult<D> {
  const { pageSize, maximumRowsRead, maximumBytesRead } = request;
  if (pageSize === 0)
    throw new PaginationError("Must request at least 1 document while paginating");
  if (pageSize > MAX_READ_ROWS) throw new PaginationError(`Requested too many items: ${pageSize}`);
  if (maximumRowsRead === 0 || maximumBytesRead === 0)
    throw new PaginationError("maximumRowsRead and maximumBytesRead must be greater than 0");
  const start = request.cursor === null ? null : decodeCursor(request.fingerprint, request.cursor);
  const end =
    request.endCursor === null ? null : decodeCursor(request.fingerprint, request.endCursor);

  const direction = source.order === "asc" ? 1 : -1;
  /** >0 when the row lies beyond `position` in the query's order. */
  const beyond = (row: OrderedRow<D>, position: Position) =>
    position === "end" ? -1 : compareKeys(row.key, position.after) * direction;

  const rows: Iterator<OrderedRow<D>> =
    start === "end"
      ? [][Symbol.iterator]()
      : source.rowsAfter(start === null ? null : start.after)[Symbol.iterator]();

  // With an end cursor the whole range is read, up to the transaction's limits: the page's own limits
  // apply only to a page whose end is open.
  const enforceLimits = end === null;
  const page: D[] = [];
  const readKeys: unknown[][] = [];
  let rowsRead = 0;
  let bytesRead = 0;
  let position: Position | null = start;
  let pageStatus: PageResult<D>["pageStatus"] = null;
  reading: while (end !== null || page.length < pageSize) {
    for (;;) {
      const next = rows.next();
      const row = next.done ? undefined : next.value;
      if (row === undefined || (end !== null && beyond(row, end) > 0)) {
        position = end ?? "end";
        break reading;
      }
      if (
        enforceLimits
          ? (maximumBytesRead !== null && bytesRead >= maximumBytesRead) ||
            (maximumRowsRead !== null && rowsRead >= maximumRowsRead)
          : rowsRead >= MAX_READ_ROWS || bytesRead >= MAX_READ_BYTES || page.length >= MAX_PAGE_LEN
      ) {
        pageStatus = "SplitRequired";
        break reading;
      }
      rowsRead++;
      bytesRead += source.size(row.doc);
      readKeys.push(row.key);
      position = { after: row.key };
      if (source.matches(row.doc)) {
        page.push(row.doc);
        break;
      }
    }
  }
  if (
    pageStatus === null &&
    (rowsRead > soft(Math.min(maximumRowsRead ?? MAX_READ_ROWS, MAX_READ_ROWS)) ||
      bytesRead > soft(Math.min(maximumBytesRead ?? MAX_READ_BYTES, MAX_READ_BYTES)) ||
      page.length > SOFT_MAX_PAGE_LEN)
  )
    pageStatus = "SplitRecommended";
  const cursor: Position = end ?? position ?? "end";
  const split =
    source.splittable && readKeys.length > 2 ? readKeys[Math.floor(readKeys.length / 2)] : null;
  return {
    page,
    isDone: cursor === "end",
    continueCursor: encodeCursor(request.fingerprint, cursor),
    splitCursor: split === null ? null : encodeCursor(request.fingerprint, { after: split }),
    pageStatus,
  };
}
