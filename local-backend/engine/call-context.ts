// The async context a function's work runs in: one AsyncLocalStorage whose store is a frame holding
// everything the engine looks up while answering a function (its call, read set, transaction, …). One
// storage, not one per value: on Node 20 every enabled AsyncLocalStorage adds a step to every promise.
import { AsyncLocalStorage } from "node:async_hooks";
import type { JSONValue } from "convex/values";
import type { ActionWorker } from "./action-pool.ts";
import type { ReadSet } from "./read-set.ts";
import type { FifoLock } from "./serial-transactions.ts";
import type { TransactionStore, TransactionSyscalls } from "./transaction.ts";

export interface RequestKey {
  sessionId: string;
  requestId: number;
}

/** One call's log lines and outcome, as the engine collects them while it runs. */
export interface CallContext {
  udfPath: string;
  logLines: string[];
  commitTs?: bigint;
  request?: RequestKey;
  /** The function's result as JSON (the value convex/server serialised). */
  result?: JSONValue;
  /** A query's result as the text convex/server wrote. */
  resultText?: string;
  /** The mutation's JSON result, seen just before its top-level commit. */
  rawResult?: string;
  /** A query's journal: the end cursor its page had (`previous`) and has now (`next`). */
  journal?: { previous: string | null; next: string | null };
}

export interface Frame {
  call?: CallContext;
  readSet?: ReadSet;
  /** The pool worker whose action made the syscall being answered: its ctx.runAction runs there too. */
  actionWorker?: ActionWorker;
  /** The query or mutation whose syscalls are being answered (engine/transaction.ts). */
  transaction?: TransactionSyscalls;
  /** The lock a query's or mutation's nested ctx.run* take, one at a time (Engine.runUdf). */
  nestedLock?: FifoLock;
  /** A transaction the engine's own code opened (Engine.transact): storage writes join it. */
  writing?: TransactionStore;
  /** A query's or mutation's handler: the globals it sees replaced (engine/transaction-globals.ts). */
  globals?: Record<string, unknown>;
}

const frames = new AsyncLocalStorage<Frame>();

export function currentFrame(): Frame | undefined {
  return frames.getStore();
}

/** Runs `callback` in a copy of the current frame with `changes` applied. */
export function runInFrame<T>(changes: Frame, callback: () => T): T {
  return frames.run({ ...frames.getStore(), ...changes }, callback);
}

/** Runs `callback` in a frame holding `frame` only: nothing of the caller's frame leaks in. */
export function runInFreshFrame<T>(frame: Frame, callback: () => T): T {
  return frames.run(frame, callback);
}
