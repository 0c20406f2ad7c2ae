// What a transaction reads, writes and schedules, counted against Convex's per-transaction limits with
// Convex's texts (crates/database reads.rs and writes.rs, crates/model scheduled_jobs), one level per
// nested call as SerialTransactions opens them: a nested level counts on top of its caller's use, within
// `transactionLimits` of its own if given; its commit hands its counts to the caller, its rollback only
// its reads (they happened; the writes were undone).
import type { LevelledTracker } from "./serial-transactions.ts";

const MiB = 1 << 20;

/** Convex's limits on one function execution (docs "Limits"). */
export const TRANSACTION_LIMITS = {
  bytesRead: 16 * MiB,
  bytesWritten: 16 * MiB,
  documentsRead: 32_000,
  databaseQueries: 4_096,
  documentsWritten: 16_000,
  functionsScheduled: 1_000,
  scheduledFunctionArgsBytes: 16 * MiB,
};

type Metric = keyof typeof TRANSACTION_LIMITS;
type Metrics = Record<Metric, number>;

/** Counts that stay with the caller when a nested level rolls back. */
const READ_METRICS: Metric[] = ["bytesRead", "documentsRead", "databaseQueries"];

const OVER_LIMIT_HELP =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries " +
  "with a selective index range expressions.";

/** Convex's text for a limit passed. */
const OVER_LIMIT: Record<Metric, (limit: number) => string> = {
  bytesRead: (limit) =>
    `Too many bytes read in a single function execution (limit: ${limit} bytes). ${OVER_LIMIT_HELP}`,
  documentsRead: (limit) =>
    `Too many documents read in a single function execution (limit: ${limit}). ${OVER_LIMIT_HELP}`,
  databaseQueries: (limit) =>
    `Too many reads in a single function execution (limit: ${limit}). ${OVER_LIMIT_HELP}`,
  bytesWritten: (limit) =>
    `Too many bytes written in a single function execution (limit: ${limit / MiB} MiB)`,
  documentsWritten: (limit) => `Too many writes in a single function execution (limit: ${limit})`,
  functionsScheduled: (limit) => `Too many functions scheduled by this mutation (limit: ${limit})`,
  scheduledFunctionArgsBytes: (limit) =>
    `Too large total size of the arguments of scheduled functions from this mutation (limit: ${limit} bytes)`,
};

interface Level {
  metrics: Metrics;
  limits: Metrics;
}

const zero = (): Metrics => ({
  bytesRead: 0,
  bytesWritten: 0,
  documentsRead: 0,
  documentsWritten: 0,
  databaseQueries: 0,
  functionsScheduled: 0,
  scheduledFunctionArgsBytes: 0,
});

/** One transaction's metrics (`ctx.meta.getTransactionMetrics()` reads them). */
export class TransactionMetrics implements LevelledTracker {
  private readonly levels: Level[] = [];

  startTransaction(transactionLimits?: Record<string, number>) {
    const parent = this.levels[this.levels.length - 1];
    if (parent === undefined) {
      this.levels.push({ metrics: zero(), limits: { ...TRANSACTION_LIMITS } });
      return;
    }
    const limits = { ...parent.limits };
    if (transactionLimits !== undefined)
      for (const key of Object.keys(limits) as Metric[]) {
        const requested = transactionLimits[key];
        // a nested call may only lower its budget, counted from what its caller has used
        if (requested !== undefined)
          limits[key] = Math.min(parent.limits[key], parent.metrics[key] + requested);
      }
    this.levels.push({ metrics: { ...parent.metrics }, limits });
  }

  commit() {
    const level = this.pop();
    const parent = this.levels[this.levels.length - 1];
    if (parent !== undefined) parent.metrics = { ...level.metrics };
  }

  rollback() {
    const level = this.pop();
    const parent = this.levels[this.levels.length - 1];
    if (parent !== undefined)
      for (const key of READ_METRICS) parent.metrics[key] = level.metrics[key];
  }

  trackRead(bytes: number) {
    this.add("bytesRead", bytes, "documentsRead");
  }

  trackWrite(bytes: number) {
    this.add("bytesWritten", bytes, "documentsWritten");
  }

  trackIndexRange() {
    this.add("databaseQueries", 1);
  }

  trackScheduledFunction(argsBytes: number) {
    this.add("functionsScheduled", 1, "scheduledFunctionArgsBytes", argsBytes);
  }

  /** Each metric's use and what remains of its limit, as Convex's `getTransactionMetrics` answers. */
  getTransactionMetrics(): Record<Metric, { used: number; remaining: number }> {
    const level = this.levels[this.levels.length - 1];
    if (level === undefined) throw new Error("Transaction not started");
    const answer = {} as Record<Metric, { used: number; remaining: number }>;
    for (const key of Object.keys(TRANSACTION_LIMITS) as Metric[])
      answer[key] = { used: level.metrics[key], remaining: level.limits[key] - level.metrics[key] };
    return answer;
  }

  /** Adds `amount` to one metric and 1 (or `countAmount`) to another, then checks both, in that order. */
  private add(metric: Metric, amount: number, count?: Metric, countAmount = 1) {
    const level = this.levels[this.levels.length - 1];
    if (level === undefined) return;
    const { metrics, limits } = level;
    metrics[metric] += amount;
    if (count !== undefined) metrics[count] += countAmount;
    if (metrics[metric] > limits[metric]) throw new Error(OVER_LIMIT[metric](limits[metric]));
    if (count !== undefined && metrics[count] > limits[count])
      throw new Error(OVER_LIMIT[count](limits[count]));
  }

  private pop(): Level {
    const level = this.levels.pop();
    if (level === undefined) throw new Error("Transaction not started");
    return level;
  }
}
