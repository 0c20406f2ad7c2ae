// The function log stream `npx convex logs` and `npx convex dev` read (GET /api/stream_function_logs):
// the last executions with their log lines, and a long poll for the next ones.
import type { Execution } from "../engine/engine.ts";

const KEPT = 2_000;
const POLL_MS = 10_000;
const MAX_WAITERS = 64;
/** Bounds what the ring holds: lines per run and characters per line (the rest is cut, as Convex truncates). */
const MAX_LINES = 256;
const MAX_LINE_CHARS = 4096;
const UDF_TYPE = {
  query: "Query",
  mutation: "Mutation",
  action: "Action",
  httpAction: "HttpAction",
} as const;

/** An execution as recorded; its JSON is made when a client reads it (most never are). */
interface Entry {
  cursor: number;
  execution: Execution;
}

export class FunctionLogs {
  private entries: Entry[] = [];
  // Starts at now: a client's first poll (cursor 0) gets a cursor past the backlog to wait on.
  private lastCursor = Date.now();
  private waiters = new Set<() => void>();

  record(e: Execution) {
    // The cursor is a millisecond timestamp, as Convex's, kept strictly increasing.
    const cursor = Math.max(this.lastCursor + 1, e.startedAt + e.durationMs);
    this.lastCursor = cursor;
    this.entries.push({ cursor, execution: e });
    // Trimmed once per KEPT records, not by one each time (a shift of the whole array).
    if (this.entries.length >= 2 * KEPT) this.entries.splice(0, this.entries.length - KEPT);
    if (this.waiters.size === 0) return;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Entries after `cursor`; with none yet, waits for one (up to 10 s). Cursor 0: the backlog, at once. */
  async after(cursor: number, closed: Promise<void>) {
    if (cursor > 0 && cursor >= this.lastCursor && this.waiters.size < MAX_WAITERS) {
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      this.waiters.add(wake);
      const timer = setTimeout(wake, POLL_MS);
      await Promise.race([woken, closed]);
      clearTimeout(timer);
      this.waiters.delete(wake);
    }
    const entries = this.entries
      .slice(-KEPT)
      .filter((e) => e.cursor > cursor)
      .map((e) => entryJson(e.execution));
    return { entries, newCursor: Math.max(cursor, this.lastCursor) };
  }
}

/** An entry as Convex's stream_function_logs sends it (a `Completion`). */
function entryJson(e: Execution): Record<string, unknown> {
  return {
    kind: "Completion",
    identifier: e.udfPath,
    udfType: UDF_TYPE[e.kind],
    componentPath: null,
    timestamp: (e.startedAt + e.durationMs) / 1000,
    executionTime: e.durationMs / 1000,
    logLines: e.logLines
      .slice(0, MAX_LINES)
      .map((line) =>
        line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} (truncated)` : line,
      ),
    error: e.error === null ? null : e.error.slice(0, MAX_LINE_CHARS),
    // An HTTP action's response status (Convex's `success`); null for functions.
    success: e.kind === "httpAction" && e.error === null ? (e.status ?? null) : null,
    cachedResult: false,
    requestId: "",
    executionId: "",
  };
}
