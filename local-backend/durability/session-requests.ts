// Exactly-once mutations for sync clients. convex/browser resends, on reconnect, every mutation it has
// no Transition for yet, with the same sessionId (from Connect) and requestId. A mutation's result is
// recorded under (sessionId, requestId) in its commit's log record (so it survives kill -9 with the
// writes, or not at all); a resent one that committed is answered from here instead of running again.
import type { JSONValue } from "convex/values";

export type MutationOutcome =
  | { success: true; result: JSONValue; ts: bigint; logLines: string[] }
  | { success: false; result: string; errorData?: JSONValue; logLines: string[] };

/** One durable record: [sessionId, requestId, commit ts, result]. */
export type RequestRecord = [string, number, string, JSONValue];

export interface RequestLimits {
  /** Results kept per session (oldest dropped first). */
  perSession: number;
  /** Results older than this (by commit ts) are dropped by prune(). */
  maxAgeMs: number;
  /** Results kept over all sessions (least recently active sessions dropped first). */
  total: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  perSession: 1000,
  maxAgeMs: 24 * 60 * 60 * 1000,
  total: 100_000,
};

interface Entry {
  ts: bigint;
  result: JSONValue;
  /** Written in a commit's log record (a mutation without writes is remembered in memory only). */
  durable: boolean;
}

/** What a Mutation message should do: run (and settle), or answer with another run's outcome. */
export type Claim =
  | {
      owner: true;
      settle(outcome: MutationOutcome): void;
      /** Gives up a run that never started (its connection closed): whoever waits for it claims again. */
      abandon(): void;
    }
  /** `null`: the run was abandoned, claim again. */
  | { owner: false; outcome: Promise<MutationOutcome | null> };

export class SessionRequests {
  /** sessionId → requestId → entry; both maps in order of last activity (oldest first). */
  private sessions = new Map<string, Map<number, Entry>>();
  private size = 0;
  /** Runs under way, keyed `${sessionId} ${requestId}`: a resend arriving meanwhile waits for them. */
  private running = new Map<string, Promise<MutationOutcome | null>>();

  constructor(readonly limits: RequestLimits = DEFAULT_REQUEST_LIMITS) {}

  /** Called when a Mutation message arrives (before it is queued), so a resend can never start a second run. */
  claim(sessionId: string, requestId: number): Claim {
    const key = `${sessionId} ${requestId}`;
    const running = this.running.get(key);
    if (running) return { owner: false, outcome: running };
    const entry = this.sessions.get(sessionId)?.get(requestId);
    if (entry)
      return {
        owner: false,
        outcome: Promise.resolve({
          success: true,
          result: entry.result,
          ts: entry.ts,
          logLines: [],
        }),
      };
    let settle!: (outcome: MutationOutcome | null) => void;
    this.running.set(key, new Promise((resolve) => (settle = resolve)));
    return {
      owner: true,
      abandon: () => {
        this.running.delete(key);
        settle(null);
      },
      settle: (outcome) => {
        this.running.delete(key);
        // A mutation that wrote nothing has no log record: remember it for this process's lifetime.
        if (outcome.success && !this.sessions.get(sessionId)?.has(requestId))
          this.add(sessionId, requestId, outcome.ts, outcome.result, false);
        settle(outcome);
      },
    };
  }

  /** A committed mutation's result (called from the commit, with its log record). */
  record(sessionId: string, requestId: number, ts: bigint, result: JSONValue) {
    this.add(sessionId, requestId, ts, result, true);
  }

  /** Recovery: records from the snapshot and the log, oldest first. */
  load(records: Iterable<RequestRecord>, now = Date.now()) {
    for (const [sessionId, requestId, ts, result] of records)
      this.add(sessionId, requestId, BigInt(ts), result, true);
    this.prune(now);
  }

  /** The durable records still kept, oldest first (for a snapshot). */
  records(): RequestRecord[] {
    const out: RequestRecord[] = [];
    for (const [sessionId, entries] of this.sessions) {
      for (const [requestId, e] of entries)
        if (e.durable) out.push([sessionId, requestId, e.ts.toString(), e.result]);
    }
    return out;
  }

  get count() {
    return this.size;
  }

  /** Drops results older than `maxAgeMs` (commit timestamps are wall-clock nanoseconds). */
  prune(now = Date.now()) {
    const cutoff = BigInt(now - this.limits.maxAgeMs) * 1_000_000n;
    for (const [sessionId, entries] of this.sessions) {
      for (const [requestId, e] of entries) {
        if (e.ts >= cutoff) break;
        entries.delete(requestId);
        this.size -= 1;
      }
      if (entries.size > 0) continue;
      this.sessions.delete(sessionId);
    }
  }

  private add(
    sessionId: string,
    requestId: number,
    ts: bigint,
    result: JSONValue,
    durable: boolean,
  ) {
    let entries = this.sessions.get(sessionId);
    if (entries) this.sessions.delete(sessionId);
    else entries = new Map();
    this.sessions.set(sessionId, entries);
    if (entries.has(requestId)) this.size -= 1;
    entries.delete(requestId);
    entries.set(requestId, { ts, result, durable });
    this.size += 1;
    for (const oldest of entries.keys()) {
      if (entries.size <= this.limits.perSession) break;
      entries.delete(oldest);
      this.size -= 1;
    }
    for (const [oldSession, oldEntries] of this.sessions) {
      if (this.size <= this.limits.total || oldSession === sessionId) break;
      this.sessions.delete(oldSession);
      this.size -= oldEntries.size;
    }
  }
}
