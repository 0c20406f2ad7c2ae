// The deployment's transactions: one at a time, in arrival order (so serializable), each a stack of
// levels, one per nested `ctx.runQuery` / `ctx.runMutation`. A level's commit merges it into its caller's,
// a rollback drops it alone, and the outermost commit applies the whole transaction at a timestamp of
// its own. Every query and mutation takes this lock: the engine's own (Engine.invoke, Engine.runUdf,
// an action's storage writes and scheduler calls, scheduled jobs) and those convex-test still runs (a
// function handle's, t.run), which reach it as their `transactionManager`.
import type { MetricsTracker } from "./transaction.ts";

/** First come, first served: `acquire` resolves once every earlier caller has released. */
export class FifoLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  get isHeld(): boolean {
    return this.held;
  }

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the lock to the next caller waiting, if any. */
  release() {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.held = false;
  }
}

/** The store's side of the levels: pending writes and index trees (DocumentStore). */
export interface LevelledStore<Stashed> {
  beginLevel(): void;
  /** Ends the innermost level keeping its writes: merged below, or (the outermost) applied at `commitTs`. */
  commitLevel(commitTs: bigint | null): void;
  rollbackLevel(): void;
  /** Takes every open level away (a snapshot query reads committed documents only); `unstashLevels` puts them back. */
  stashLevels(): Stashed;
  unstashLevels(stashed: Stashed): void;
}

/** Convex's transaction metrics with the same levels (engine/transaction-metrics.ts). */
export interface LevelledTracker extends MetricsTracker {
  /** A nested level counts on top of its caller's use, within `transactionLimits` of its own if given. */
  startTransaction(transactionLimits?: Record<string, number>): void;
  commit(): void;
  /** Drops the level's writes from the count; its reads still count. */
  rollback(): void;
}

export class SerialTransactions<Stashed> {
  /** The latest commit's timestamp (Unix ns); 0 before any. */
  lastCommitTs = 0n;
  private readonly lock = new FifoLock();
  /** The open transaction's metrics; null outside one. */
  private tracker: LevelledTracker | null = null;

  constructor(
    private readonly store: LevelledStore<Stashed>,
    private readonly newTracker: () => LevelledTracker,
  ) {}

  /** Opens a level: a transaction (waiting for the lock) or, `nested`, a level of the open one. */
  async begin(nested: boolean, transactionLimits?: Record<string, number>): Promise<void> {
    if (!nested) {
      await this.lock.acquire();
      this.tracker = this.newTracker();
    }
    this.store.beginLevel();
    this.tracker?.startTransaction(transactionLimits);
  }

  /** Ends the innermost level keeping its writes; the outermost commits: its timestamp, else null. */
  commit(nested: boolean): bigint | null {
    let commitTs: bigint | null = null;
    if (!nested) {
      // a clock that stands still or goes back still gives each commit a later timestamp
      const now = BigInt(Date.now()) * 1_000_000n;
      commitTs = now > this.lastCommitTs ? now : this.lastCommitTs + 1n;
      this.lastCommitTs = commitTs;
    }
    // a throw after the writes (the log's append) must not keep the lock from every later transaction
    try {
      this.store.commitLevel(commitTs);
      this.tracker?.commit();
    } finally {
      if (!nested) this.end();
    }
    return commitTs;
  }

  /** Ends the innermost level dropping its writes; the outermost ends the transaction. */
  rollback(nested: boolean) {
    try {
      this.store.rollbackLevel();
      this.tracker?.rollback();
    } finally {
      if (!nested) this.end();
    }
  }

  /** Restored state: later commits get later timestamps. */
  advanceTo(ts: bigint) {
    if (ts > this.lastCommitTs) this.lastCommitTs = ts;
  }

  getMetricsTracker(): LevelledTracker | null {
    return this.tracker;
  }

  /** `1.0/getSnapshotTs`: transactions run one at a time, so the latest commit is the snapshot's. */
  getSnapshotTs(): bigint {
    if (!this.lock.isHeld)
      throw new Error("getSnapshotTs() can only be called from a query or mutation.");
    return this.lastCommitTs;
  }

  stashWrites(): Stashed {
    return this.store.stashLevels();
  }

  restoreWrites(stashed: Stashed) {
    this.store.unstashLevels(stashed);
  }

  private end() {
    if (!this.lock.isHeld) throw new Error("Transaction not started");
    this.tracker = null;
    this.lock.release();
  }
}
