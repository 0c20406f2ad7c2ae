// Subscribed queries: grouped by (function, args), read through the engine's query cache and
// re-evaluated when a commit makes one of their cached results stale, coalesced into one pass per burst.
import type { JSONValue } from "convex/values";
import { parseUdfPath, type Engine, type Identity } from "../engine/engine.ts";
import { outcomeJson, QueryCache, type Outcome } from "./query-cache.ts";

export type { Outcome } from "./query-cache.ts";

export interface Subscriber {
  readonly queryId: number;
  readonly udfPath: string;
  readonly args: JSONValue;
  readonly groupKey: string;
  /** outcomeJson of the last outcome computed for this subscriber (what the client has or will get). */
  lastJson?: string;
  owner: SubscriberOwner;
}

export interface SubscriberOwner {
  identity: Identity | null;
  admin: boolean;
  /** Changes with `identity`/`admin`: an outcome computed under another epoch is for another caller. */
  identityEpoch: number;
  /** Hands over an outcome that differs from what this subscriber last got, computed under `identityEpoch`. */
  deliver(sub: Subscriber, outcome: Outcome, ts: bigint, identityEpoch: number): void;
  /** Called once per flush after all deliveries, so each owner sends one Transition. */
  endOfFlush(ts: bigint): void;
}

interface Group {
  key: string;
  subs: Set<Subscriber>;
}

export class Subscriptions {
  private groups = new Map<string, Group>();
  private commitsPending = false;
  private dirtyGroups = new Set<Group>();
  private flushing: Promise<void> | null = null;
  private deliveries: Promise<void> = Promise.resolve();
  private scheduled = false;
  private notifiedTs = 0n;
  private completedTs = 0n;
  private waiters: { ts: bigint; resolve: () => void }[] = [];

  /** `durable` resolves once every commit so far is on disk: no client sees data a crash could lose. */
  constructor(
    private readonly engine: Engine,
    private readonly durable: () => Promise<void> = () => Promise.resolve(),
  ) {
    engine.queries.onInvalidate((key) => {
      const group = this.groups.get(key);
      if (group) {
        this.dirtyGroups.add(group);
        this.schedule();
      }
    });
  }

  /** Query runs performed (for tests and benchmarks). */
  get runs() {
    return this.engine.queries.runs;
  }

  static key(udfPath: string, args: JSONValue) {
    return QueryCache.key(parseUdfPath(udfPath).canonical, args);
  }

  add(sub: Subscriber) {
    let group = this.groups.get(sub.groupKey);
    if (!group) {
      group = { key: sub.groupKey, subs: new Set() };
      this.groups.set(sub.groupKey, group);
    }
    group.subs.add(sub);
    this.engine.queries.retain(sub.groupKey);
  }

  remove(sub: Subscriber) {
    const group = this.groups.get(sub.groupKey);
    if (!group?.subs.delete(sub)) return;
    if (group.subs.size === 0) this.groups.delete(sub.groupKey);
    this.engine.queries.release(sub.groupKey);
  }

  get size() {
    return this.groups.size;
  }

  /** Current outcome for a subscriber, from the shared cache or a fresh run. */
  evaluate(sub: Subscriber): Promise<Outcome> {
    return this.engine.query(sub.udfPath, sub.args, sub.owner);
  }

  /** Called synchronously from the engine's commit hook (after the query cache dropped what it touched). */
  onCommit(ts: bigint) {
    this.commitsPending = true;
    if (ts > this.notifiedTs) this.notifiedTs = ts;
    this.schedule();
  }

  /** Resolves once subscribers have been updated for every commit up to `ts`. */
  flushedThrough(ts: bigint): Promise<void> {
    if (this.completedTs >= ts || this.notifiedTs < ts) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ ts, resolve }));
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() =>
      this.engine.detached(() => {
        this.scheduled = false;
        void this.flushLoop();
      }),
    );
  }

  private async flushLoop() {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.commitsPending || this.dirtyGroups.size > 0) await this.flushOnce();
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async flushOnce() {
    const ts = this.engine.currentTs();
    const coveredTs = this.notifiedTs;
    this.commitsPending = false;
    const affected = this.dirtyGroups;
    this.dirtyGroups = new Set();
    // The fsync runs while the queries re-run; results go out only once it is done.
    const durable = this.durable();
    const updates: [Subscriber, Outcome, number][] = [];
    for (const group of affected) {
      if (this.groups.get(group.key) !== group) continue;
      for (const sub of group.subs) {
        const epoch = sub.owner.identityEpoch;
        const outcome = await this.evaluate(sub);
        const json = outcomeJson(outcome);
        if (json === sub.lastJson) continue;
        sub.lastJson = json;
        updates.push([sub, outcome, epoch]);
      }
    }
    // Deliveries are chained, so the next pass can re-run queries while this one waits for its fsync.
    this.deliveries = this.deliveries
      .then(() => durable)
      .then(() => {
        const owners = new Set<SubscriberOwner>();
        for (const [sub, outcome, epoch] of updates) {
          sub.owner.deliver(sub, outcome, ts, epoch);
          owners.add(sub.owner);
        }
        for (const owner of owners) owner.endOfFlush(ts);
      })
      .catch((error) => console.error("local-backend: delivering query updates failed", error))
      .finally(() => {
        if (coveredTs > this.completedTs) this.completedTs = coveredTs;
        this.waiters = this.waiters.filter((w) => {
          if (w.ts > this.completedTs) return true;
          w.resolve();
          return false;
        });
      });
  }
}
