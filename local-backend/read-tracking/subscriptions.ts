// Subscribed queries: one shared run per (function, args[, identity when read]), re-run
// only when a commit touches what the run read, coalesced into one pass per burst.
import type { JSONValue } from "convex/values";
import { FunctionError, type Engine, type Identity } from "../engine/engine.ts";
import { ReadSet, type Change } from "../engine/read-set.ts";

export type Outcome =
  | { ok: true; value: JSONValue; logLines: string[] }
  | { ok: false; message: string; data: JSONValue | undefined; logLines: string[] };

export interface Subscriber {
  readonly queryId: number;
  readonly udfPath: string;
  readonly args: JSONValue;
  readonly groupKey: string;
  /** JSON of the last outcome computed for this subscriber (what the client has or will get). */
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

interface Entry {
  promise: Promise<Outcome>;
  readSet: ReadSet;
  done: boolean;
}

interface Group {
  udfPath: string;
  args: JSONValue;
  subs: Set<Subscriber>;
  /** "*" (or "*admin") = a run that did not read the identity, valid for every caller; else identity key. */
  entries: Map<string, Entry>;
}

const identityKey = (identity: Identity | null, admin: boolean) =>
  `${admin ? "admin:" : ""}${identity ? identity.tokenIdentifier : "anonymous"}`;

const BATCHES_KEPT = 5000;

export class Subscriptions {
  private groups = new Map<string, Group>();
  private seq = 0;
  private batches: { seq: number; changes: Change[] }[] = [];
  private pending: Change[][] = [];
  private dirtyGroups = new Set<Group>();
  private flushing: Promise<void> | null = null;
  private deliveries: Promise<void> = Promise.resolve();
  private scheduled = false;
  private notifiedTs = 0n;
  private completedTs = 0n;
  private waiters: { ts: bigint; resolve: () => void }[] = [];
  /** Query runs performed (for tests and benchmarks). */
  runs = 0;

  /** `durable` resolves once every commit so far is on disk: no client sees data a crash could lose. */
  constructor(
    private readonly engine: Engine,
    private readonly durable: () => Promise<void> = () => Promise.resolve(),
  ) {}

  static key(udfPath: string, args: JSONValue) {
    return `${udfPath}\u0000${JSON.stringify(args)}`;
  }

  add(sub: Subscriber) {
    let group = this.groups.get(sub.groupKey);
    if (!group) {
      group = { udfPath: sub.udfPath, args: sub.args, subs: new Set(), entries: new Map() };
      this.groups.set(sub.groupKey, group);
    }
    group.subs.add(sub);
  }

  remove(sub: Subscriber) {
    const group = this.groups.get(sub.groupKey);
    if (!group) return;
    group.subs.delete(sub);
    if (group.subs.size === 0) this.groups.delete(sub.groupKey);
  }

  get size() {
    return this.groups.size;
  }

  /** Current outcome for a subscriber, from the shared cache or a fresh run. */
  evaluate(sub: Subscriber): Promise<Outcome> {
    const group = this.groups.get(sub.groupKey);
    if (!group) return this.run(sub.udfPath, sub.args, sub.owner).then((r) => r.outcome);
    const key = identityKey(sub.owner.identity, sub.owner.admin);
    // Admin callers may run internal functions: never share their results with others.
    const anyone = sub.owner.admin ? "*admin" : "*";
    const cached = group.entries.get(anyone) ?? group.entries.get(key);
    if (cached) return cached.promise;
    const startSeq = this.seq;
    const readSet = new ReadSet();
    const entry: Entry = { readSet, done: false, promise: Promise.resolve(null as never) };
    entry.promise = this.run(sub.udfPath, sub.args, sub.owner, readSet).then(({ outcome }) => {
      entry.done = true;
      if (group.entries.get(key) === entry) {
        group.entries.delete(key);
        if (this.changedSince(startSeq, readSet)) this.markDirty(group);
        else group.entries.set(readSet.identity ? key : anyone, entry);
      }
      return outcome;
    });
    group.entries.set(key, entry);
    return entry.promise;
  }

  private async run(udfPath: string, args: JSONValue, owner: SubscriberOwner, readSet = new ReadSet()) {
    this.runs += 1;
    try {
      const result = await this.engine.call("query", udfPath, args, { identity: owner.identity, admin: owner.admin, readSet });
      return { outcome: { ok: true, value: result.value as JSONValue, logLines: result.logLines } as Outcome, readSet };
    } catch (error) {
      const e = error instanceof FunctionError ? error : new FunctionError(String(error), undefined, []);
      return { outcome: { ok: false, message: e.message, data: e.data as JSONValue | undefined, logLines: e.logLines } as Outcome, readSet };
    }
  }

  private changedSince(seq: number, readSet: ReadSet): boolean {
    if (seq === this.seq) return false;
    if (this.batches.length === 0 || this.batches[0].seq > seq + 1) return true;
    return this.batches.some((b) => b.seq > seq && readSet.touchedBy(b.changes, this.engine.rangeMatches));
  }

  private markDirty(group: Group) {
    this.dirtyGroups.add(group);
    this.schedule();
  }

  /** Called synchronously from the engine's commit hook. */
  onCommit(ts: bigint, changes: Change[]) {
    this.seq += 1;
    this.batches.push({ seq: this.seq, changes });
    if (this.batches.length > BATCHES_KEPT) this.batches.splice(0, this.batches.length - BATCHES_KEPT);
    this.pending.push(changes);
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
      while (this.pending.length > 0 || this.dirtyGroups.size > 0) await this.flushOnce();
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
    const changes = this.pending.flat();
    this.pending = [];
    const affected = new Set(this.dirtyGroups);
    this.dirtyGroups.clear();
    for (const group of this.groups.values()) {
      for (const [key, entry] of group.entries) {
        if (entry.done && entry.readSet.touchedBy(changes, this.engine.rangeMatches)) {
          group.entries.delete(key);
          affected.add(group);
        }
      }
    }
    // The fsync runs while the queries re-run; results go out only once it is done.
    const durable = this.durable();
    const updates: [Subscriber, Outcome, number][] = [];
    for (const group of affected) {
      if (!this.groups.has(Subscriptions.key(group.udfPath, group.args))) continue;
      for (const sub of group.subs) {
        const epoch = sub.owner.identityEpoch;
        const outcome = await this.evaluate(sub);
        const json = JSON.stringify(outcome);
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
