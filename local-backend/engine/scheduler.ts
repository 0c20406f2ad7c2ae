// Convex's scheduler (crates/model/src/scheduled_jobs): `ctx.scheduler.runAfter/runAt` writes a pending
// `_scheduled_functions` row in the calling transaction and `cancel` marks it canceled there; a timer
// per job runs it when due through the engine's own invoke path. States as Convex's: pending →
// (inProgress, actions only) → success | failed {error} | canceled; every finished state carries
// `completedTime`, and a finished job is never changed again.
import { clearTimeout as clearTimer, setTimeout as setTimer } from "node:timers";
import { getConvexSize, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { MetricsTracker, TransactionStore } from "./transaction.ts";
import { addressedPath, type FunctionAddress } from "./function-address.ts";

export const SCHEDULED_FUNCTIONS = "_scheduled_functions";

/** What an action job interrupted by a restart ends with: Convex runs an action at most once. */
export const INTERRUPTED_ERROR = "Transient error while executing action";

/** `1.0/schedule`'s arguments (scheduler_impl.js): the function by name, reference or handle; `ts` in seconds. */
export interface ScheduleArgs extends FunctionAddress {
  args: JSONValue;
  ts: number;
}

export type FinishedState =
  { kind: "success" } | { kind: "failed"; error: string } | { kind: "canceled" };

export interface ScheduledJob {
  _id: string;
  name: string;
  args: Value[];
  scheduledTime: number;
}

/** What the scheduler needs from the engine. */
export interface JobRunner {
  /** The kind of function `name` is; undefined when it names none. */
  kind(name: string): Promise<"query" | "mutation" | "action" | undefined>;
  /** Runs `write` in a transaction of its own. */
  write<T>(write: (store: TransactionStore) => T): Promise<T>;
  /**
   * Runs the job's function as a top-level call, without identity, its request metadata naming the
   * job; a mutation commits its job's success in its own transaction (`Scheduler.complete`). Throws
   * what the function threw.
   */
  run(job: ScheduledJob): Promise<void>;
  /** Runs `fn` in a fresh top-level context of its own (the job's log context). */
  detached(job: ScheduledJob, fn: () => void): void;
  /** The text a failed job keeps as `state.error`. */
  errorText(error: unknown): string;
}

const stateOf = (job: Record<string, unknown> | null) =>
  (job?.state as { kind?: string } | undefined)?.kind;

export class Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly runner: JobRunner) {}

  /**
   * `ctx.scheduler.runAfter/runAt`: the job's row in `store`'s transaction, its timer armed now (a job
   * whose row was rolled back finds none and does nothing). The job's id as the syscall's JSON answer.
   */
  schedule(store: TransactionStore, tracker: MetricsTracker | null, args: ScheduleArgs): string {
    const name = addressedPath(args);
    const fnArgs = jsonToConvex(args.args) as Value;
    tracker?.trackScheduledFunction(getConvexSize(fnArgs));
    const scheduledTime = args.ts * 1000;
    const job = { name, args: [fnArgs], scheduledTime };
    const id = store.insert(SCHEDULED_FUNCTIONS, { ...job, state: { kind: "pending" } });
    this.arm({ _id: id, ...job });
    return JSON.stringify(id);
  }

  /** `ctx.scheduler.cancel` in `store`'s transaction: only a pending or running job is canceled. */
  cancel(store: TransactionStore, id: string) {
    this.complete(store, id, { kind: "canceled" });
  }

  /** Ends a pending or running job in `store`'s transaction; a finished one stays as it is. */
  complete(store: TransactionStore, id: string, state: FinishedState) {
    const kind = stateOf(store.get(SCHEDULED_FUNCTIONS, id));
    if (kind === "pending" || kind === "inProgress")
      store.patch(SCHEDULED_FUNCTIONS, id, {
        state: state as unknown as JSONValue,
        completedTime: Date.now(),
      });
  }

  /**
   * The persisted jobs after a restart: pending ones get their timers again, running ones are failed
   * (they are never run twice).
   */
  async restore(jobs: Iterable<Record<string, unknown> & { _id: string }>) {
    const interrupted: string[] = [];
    for (const job of jobs) {
      const kind = stateOf(job);
      if (kind === "inProgress") interrupted.push(job._id);
      else if (kind === "pending") this.arm(job as unknown as ScheduledJob);
    }
    for (const id of interrupted)
      await this.runner.write((store) =>
        this.complete(store, id, { kind: "failed", error: INTERRUPTED_ERROR }),
      );
  }

  /** No job starts from now on (the engine is disposed). */
  close() {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimer(timer);
    this.timers.clear();
  }

  private arm(job: ScheduledJob) {
    // node:timers: inside a function the global setTimeout is refused
    const timer = setTimer(
      () => {
        this.timers.delete(job._id);
        if (!this.closed) this.runner.detached(job, () => void this.run(job));
      },
      Math.max(0, job.scheduledTime - Date.now()),
    );
    this.timers.set(job._id, timer);
  }

  /** A due job: started if still pending, run, and ended with its outcome. */
  private async run(job: ScheduledJob): Promise<void> {
    const isMutation = (await this.runner.kind(job.name)) === "mutation";
    const started = await this.runner.write((store) => {
      if (stateOf(store.get(SCHEDULED_FUNCTIONS, job._id)) !== "pending") return false;
      if (!isMutation) store.patch(SCHEDULED_FUNCTIONS, job._id, { state: { kind: "inProgress" } });
      return true;
    });
    if (!started) return;
    try {
      await this.runner.run(job);
    } catch (error) {
      console.error(`Error when running scheduled function ${job.name}`, error);
      const failed = { kind: "failed", error: this.runner.errorText(error) } as const;
      await this.runner.write((store) => this.complete(store, job._id, failed));
      return;
    }
    if (!isMutation)
      await this.runner.write((store) => this.complete(store, job._id, { kind: "success" }));
  }
}
