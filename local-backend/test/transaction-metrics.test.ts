// A transaction's metrics by level: what a nested call's commit and rollback leave its caller, the
// lower budget `transactionLimits` gives a nested call, and Convex's texts past a limit.
import { describe, expect, it } from "vitest";
import { TransactionMetrics } from "../engine/transaction-metrics.ts";

const used = (metrics: TransactionMetrics) =>
  Object.fromEntries(
    Object.entries(metrics.getTransactionMetrics()).map(([key, { used }]) => [key, used]),
  );

describe("transaction metrics", () => {
  it("a nested level's commit leaves its reads and writes to its caller, a rollback its reads only", () => {
    const metrics = new TransactionMetrics();
    metrics.startTransaction();
    metrics.startTransaction();
    metrics.trackRead(100);
    metrics.trackWrite(10);
    metrics.commit();
    metrics.startTransaction();
    metrics.trackIndexRange();
    metrics.trackRead(50);
    metrics.trackWrite(20);
    metrics.trackScheduledFunction(7);
    metrics.rollback();
    expect(used(metrics)).toMatchObject({
      bytesRead: 150,
      documentsRead: 2,
      databaseQueries: 1,
      bytesWritten: 10,
      documentsWritten: 1,
      functionsScheduled: 0,
      scheduledFunctionArgsBytes: 0,
    });
  });

  it("transactionLimits lowers a nested call's budget, counted from its caller's use", () => {
    const metrics = new TransactionMetrics();
    metrics.startTransaction();
    for (let i = 0; i < 3; i++) metrics.trackRead(1);
    metrics.startTransaction({ documentsRead: 2 });
    expect(metrics.getTransactionMetrics().documentsRead).toEqual({ used: 3, remaining: 2 });
    metrics.trackRead(1);
    metrics.trackRead(1);
    expect(() => metrics.trackRead(1)).toThrow(
      /^Too many documents read in a single function execution \(limit: 5\)\. Consider/,
    );
  });

  it("past a limit the transaction fails with Convex's text", () => {
    const metrics = new TransactionMetrics();
    metrics.startTransaction();
    for (let i = 0; i < 4096; i++) metrics.trackIndexRange();
    expect(() => metrics.trackIndexRange()).toThrow(
      /^Too many reads in a single function execution \(limit: 4096\)\. Consider/,
    );
    expect(() => metrics.trackScheduledFunction(16 * 1024 * 1024 + 1)).toThrow(
      "Too large total size of the arguments of scheduled functions from this mutation (limit: 16777216 bytes)",
    );
  });
});
