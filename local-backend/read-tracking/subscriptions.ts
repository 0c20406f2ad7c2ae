// Subscribed queries: grouped by (function, args) and read through the engine's query cache. A commit
// that makes a group's cached result stale marks its subscribers dirty; each connection (owner) then
// gets a pass over its own dirty subscribers. Passes are not loops of their own: one sweep per turn
// walks every owner with dirty subscribers and evaluates synchronously whatever the cache answers; a
// pass that needs a run waits for it and is resumed by the run's one reaction together with every pass
// waiting for the same run (the first owner's run serves the others when it did not read the identity),
// and all passes completed together wait for one durable() before being handed over. Passes take turns
// query by query, so one connection with thousands of subscriptions delays nobody else's updates or
// mutation answers (the engine runs queries one at a time in arrival order, and passes give the event
// loop back every few milliseconds).
import type { JSONValue } from "convex/values";
import { parseUdfPath, type Engine, type Identity } from "../engine/engine.ts";
import { epochMs, traceCommitted, tracing, type UpdateTrace } from "../stage-trace.ts";
import { outcomeJson, QueryCache, type Outcome } from "./query-cache.ts";

export type { Outcome } from "./query-cache.ts";

/**
 * How long evaluation loops may keep the event loop between two of its turns. A query that reads
 * memory only resolves in microtasks, so a loop of them would starve every socket without a yield.
 */
const SLICE_MS = 5;

/** When evaluation began holding the event loop, and whether a turn since then has been asked for. */
let turnStarted = performance.now();
let turnMarked = false;

/**
 * Lets sockets and timers run when evaluation loops (all of them together) have held the event loop
 * for SLICE_MS: a promise to await then, else undefined (no promise made per step of a loop).
 */
export function yieldWhenBusy(): Promise<void> | undefined {
  if (!heldTooLong()) return undefined;
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** Whether evaluation has held the event loop for SLICE_MS since sockets and timers last had a turn. */
function heldTooLong(): boolean {
  const now = performance.now();
  if (!turnMarked) {
    // Nothing was evaluated since sockets and timers last had a turn: the slice starts now.
    turnMarked = true;
    turnStarted = now;
    setImmediate(() => {
      turnMarked = false;
    });
    return false;
  }
  return now - turnStarted >= SLICE_MS;
}

export interface Subscriber {
  readonly queryId: number;
  readonly udfPath: string;
  readonly args: JSONValue;
  /**
   * The query journal its next run gets (null before a first run, or from the client's Add after a
   * reconnect): a paginated query's first run fixes its end cursor here, as Convex's sync worker keeps it.
   */
  journal: string | null;
  /** Subscriptions.key(udfPath, args, journal) */
  groupKey: string;
  /** outcomeJson of the last outcome computed for this subscriber (what the client has or will get). */
  lastJson?: string;
  owner: SubscriberOwner;
  /** With LOCAL_BACKEND_TRACE_STAGES: the commit that made it dirty, until a pass re-runs it. */
  trace?: UpdateTrace;
}

/** A subscriber's new outcome, computed while its owner's identity had `identityEpoch`. */
export interface Update {
  sub: Subscriber;
  outcome: Outcome;
  identityEpoch: number;
  trace?: UpdateTrace;
}

export interface SubscriberOwner {
  identity: Identity | null;
  admin: boolean;
  /** Changes with `identity`/`admin`: an outcome computed under another epoch is for another caller. */
  identityEpoch: number;
  /**
   * Hands over the updates of one pass over the owner's dirty subscribers (each an outcome that differs
   * from what its subscriber last got), once durable: one Transition at `ts`. Never called empty.
   */
  flush(updates: Update[], ts: bigint): void;
}

interface Group {
  key: string;
  subs: Set<Subscriber>;
}

/** One owner's re-evaluation state. */
interface Flow {
  subscribers: number;
  dirty: Set<Subscriber>;
  /** The pass under way (evaluating, or waiting for a run or a turn), if any. */
  pass: Pass | undefined;
  /** Passes evaluated but not yet handed to the owner (they wait for the fsync). */
  undelivered: number;
  /** The owner has been handed every update of every commit up to this ts. */
  completedTs: bigint;
  waiters: { ts: bigint; resolve: () => void }[];
}

/** One pass over the subscribers an owner had dirty when it started. */
interface Pass {
  owner: SubscriberOwner;
  flow: Flow;
  /** The Transition's end ts: the state the pass started from. */
  ts: bigint;
  /** Every commit notified when it started: once handed over, the owner has them all. */
  coveredTs: bigint;
  subs: Subscriber[];
  /** The next subscriber to evaluate. */
  next: number;
  updates: Update[];
  /** The outcome of the pass's own run for subs[next], once it finished. */
  ran: Outcome | undefined;
  /** subs[next] waited for another owner's run: next time it runs its own unless the cache answers. */
  waitedForShared: boolean;
  /** The owner's identity epoch when subs[next]'s run started. */
  epoch: number;
  started: number;
}

export class Subscriptions {
  private groups = new Map<string, Group>();
  private flows = new Map<SubscriberOwner, Flow>();
  private toStart = new Set<SubscriberOwner>();
  private notifiedTs = 0n;
  private lastDurable: { ts: bigint; promise: Promise<void> } | undefined;
  /** Runs started by passes, by group key, while they run: another owner's pass waits for the same one. */
  private inFlight = new Map<string, Promise<Outcome>>();
  /** Passes waiting for each run: its one reaction resumes them all. */
  private waitingFor = new Map<Promise<Outcome>, { pass: Pass; own: boolean }[]>();
  /** Passes that gave the event loop a turn, resumed together. */
  private paused: Pass[] = [];
  /** Passes completed since the last batch was closed: they wait for one durable() together. */
  private completed: Pass[] = [];
  /** Batches are handed over in order, each after its durable() and the batch before it. */
  private handOver: Promise<void> = Promise.resolve();

  /** `durable` resolves once every commit so far is on disk: no client sees data a crash could lose. */
  constructor(
    private readonly engine: Engine,
    private readonly durable: () => Promise<void> = () => Promise.resolve(),
  ) {
    engine.queries.onInvalidate((key) => {
      const cause = tracing ? { ts: engine.currentTs(), dirtied: epochMs() } : undefined;
      for (const sub of this.groups.get(key)?.subs ?? []) {
        if (cause !== undefined) sub.trace ??= { ...cause };
        this.flows.get(sub.owner)?.dirty.add(sub);
        this.start(sub.owner);
      }
    });
  }

  /** Query runs performed (for tests and benchmarks). */
  get runs() {
    return this.engine.queries.runs;
  }

  static key(udfPath: string, args: JSONValue, journal: string | null = null) {
    return QueryCache.key(parseUdfPath(udfPath).canonical, args, journal);
  }

  add(sub: Subscriber) {
    let group = this.groups.get(sub.groupKey);
    if (!group) {
      group = { key: sub.groupKey, subs: new Set() };
      this.groups.set(sub.groupKey, group);
    }
    group.subs.add(sub);
    this.engine.queries.retain(sub.groupKey);
    this.flow(sub.owner).subscribers += 1;
  }

  remove(sub: Subscriber) {
    const group = this.groups.get(sub.groupKey);
    if (!group?.subs.delete(sub)) return;
    if (group.subs.size === 0) this.groups.delete(sub.groupKey);
    this.engine.queries.release(sub.groupKey);
    const flow = this.flows.get(sub.owner);
    if (!flow) return;
    flow.subscribers -= 1;
    flow.dirty.delete(sub);
    this.settle(sub.owner, flow);
  }

  get size() {
    return this.groups.size;
  }

  /** Current outcome for a subscriber, from the shared cache or a fresh run; it keeps the run's journal. */
  async evaluate(sub: Subscriber): Promise<Outcome> {
    return this.keepJournal(
      sub,
      await this.engine.query(sub.udfPath, sub.args, sub.owner, sub.journal),
    );
  }

  private keepJournal(sub: Subscriber, outcome: Outcome): Outcome {
    if (outcome.journal !== sub.journal) this.useJournal(sub, outcome.journal);
    return outcome;
  }

  /** durable() once per commit ts, however many passes wait for it. */
  private durableAt(ts: bigint): Promise<void> {
    if (this.lastDurable?.ts !== ts) this.lastDurable = { ts, promise: this.durable() };
    return this.lastDurable.promise;
  }

  /** Moves `sub` to the group of its new journal (whose cache entry the run that made it left behind). */
  private useJournal(sub: Subscriber, journal: string | null) {
    const subscribed = this.subscribed(sub);
    if (subscribed) this.remove(sub);
    sub.journal = journal;
    sub.groupKey = Subscriptions.key(sub.udfPath, sub.args, journal);
    if (!subscribed) return;
    this.add(sub);
    // A commit dropped that entry before this subscriber moved: nothing would tell it of the change.
    if (!this.engine.queries.has(sub.groupKey, sub.owner.identity?.tokenIdentifier ?? null)) {
      this.flows.get(sub.owner)?.dirty.add(sub);
      this.start(sub.owner);
    }
  }

  /** Called synchronously from the engine's commit hook (after the query cache dropped what it touched). */
  onCommit(ts: bigint) {
    if (tracing) traceCommitted(ts);
    if (ts > this.notifiedTs) this.notifiedTs = ts;
  }

  /**
   * Resolves once `owner` has been handed its updates for every commit up to `ts`: a client that gets
   * a commit's answer after this already has its effect on its queries.
   */
  flushedThrough(ts: bigint, owner: SubscriberOwner): Promise<void> {
    const flow = this.flows.get(owner);
    // A ts past the last commit notified (an action that wrote nothing) waits for the commits before it.
    const through = ts < this.notifiedTs ? ts : this.notifiedTs;
    if (!flow || flow.completedTs >= through || this.idle(flow)) return Promise.resolve();
    return new Promise((resolve) => flow.waiters.push({ ts: through, resolve }));
  }

  private flow(owner: SubscriberOwner): Flow {
    let flow = this.flows.get(owner);
    if (!flow) {
      flow = {
        subscribers: 0,
        dirty: new Set(),
        pass: undefined,
        undelivered: 0,
        completedTs: this.notifiedTs,
        waiters: [],
      };
      this.flows.set(owner, flow);
    }
    return flow;
  }

  private idle(flow: Flow) {
    return flow.pass === undefined && flow.dirty.size === 0 && flow.undelivered === 0;
  }

  /** Starts `owner`'s pass on the next turn (after the commit that dirtied it has returned). */
  private start(owner: SubscriberOwner) {
    if (this.toStart.size === 0) {
      setImmediate(() => this.engine.detached(() => this.sweep()));
    }
    this.toStart.add(owner);
  }

  /** Starts a pass for every owner with dirty subscribers and none under way. */
  private sweep() {
    const owners = [...this.toStart];
    this.toStart.clear();
    for (const owner of owners) {
      const flow = this.flows.get(owner);
      if (flow && flow.pass === undefined && flow.dirty.size > 0) this.begin(owner, flow);
    }
    this.closeBatch();
  }

  private subscribed(sub: Subscriber) {
    return this.groups.get(sub.groupKey)?.subs.has(sub) === true;
  }

  private begin(owner: SubscriberOwner, flow: Flow) {
    const pass: Pass = {
      owner,
      flow,
      ts: this.engine.currentTs(),
      coveredTs: this.notifiedTs,
      subs: [...flow.dirty],
      next: 0,
      updates: [],
      ran: undefined,
      waitedForShared: false,
      epoch: 0,
      started: tracing ? epochMs() : 0,
    };
    flow.dirty.clear();
    flow.pass = pass;
    this.advance(pass);
  }

  /**
   * Evaluates the pass's subscribers in order until it is done, or must wait for a run or for the
   * event loop to have had a turn (it is resumed from there). A completed pass joins the open batch.
   */
  private advance(pass: Pass) {
    const { owner, subs } = pass;
    try {
      while (pass.next < subs.length) {
        const sub = subs[pass.next];
        // Removed meanwhile (its connection closed, or the client dropped it): no work for it.
        if (!this.subscribed(sub)) {
          this.nextSub(pass);
          continue;
        }
        let outcome: Outcome;
        let epoch = owner.identityEpoch;
        if (pass.ran !== undefined) {
          outcome = this.keepJournal(sub, pass.ran);
          epoch = pass.epoch;
        } else {
          if (heldTooLong()) return this.pause(pass);
          const cached = this.engine.finishedQuery(sub.udfPath, sub.groupKey, owner);
          if (cached === undefined) return this.run(pass, sub);
          outcome = this.keepJournal(sub, cached);
        }
        const trace = sub.trace;
        sub.trace = undefined;
        this.nextSub(pass);
        const json = outcomeJson(outcome);
        if (json === sub.lastJson || !this.subscribed(sub)) continue;
        sub.lastJson = json;
        if (trace !== undefined) {
          trace.passStarted = pass.started;
          trace.evaluated = epochMs();
        }
        pass.updates.push({ sub, outcome, identityEpoch: epoch, trace });
      }
    } catch (error) {
      console.error("local-backend: re-evaluating subscriptions failed", error);
    }
    const { flow } = pass;
    flow.pass = undefined;
    flow.undelivered += 1;
    this.completed.push(pass);
    // Commits during the pass dirtied more: the next pass starts now (it follows this one in the batches).
    if (flow.dirty.size > 0) this.begin(owner, flow);
  }

  private nextSub(pass: Pass) {
    pass.next += 1;
    pass.ran = undefined;
    pass.waitedForShared = false;
  }

  /**
   * Waits for subs[next]'s outcome: another owner's run of the same query when one is under way (its
   * result, cached for anyone, answers this owner too unless it read the identity), else its own run.
   */
  private run(pass: Pass, sub: Subscriber) {
    const shared = pass.waitedForShared ? undefined : this.inFlight.get(sub.groupKey);
    if (shared !== undefined) {
      pass.waitedForShared = true;
      return this.waitFor(shared, pass, false);
    }
    pass.epoch = pass.owner.identityEpoch;
    const running = this.engine.query(sub.udfPath, sub.args, pass.owner, sub.journal);
    if (!this.inFlight.has(sub.groupKey)) this.inFlight.set(sub.groupKey, running);
    this.waitFor(running, pass, true);
  }

  private waitFor(running: Promise<Outcome>, pass: Pass, own: boolean) {
    let waiting = this.waitingFor.get(running);
    if (waiting === undefined) {
      this.waitingFor.set(running, (waiting = []));
      const key = pass.subs[pass.next].groupKey;
      void running.then(
        (outcome) => this.resume(running, key, outcome),
        (error: unknown) => {
          console.error("local-backend: re-evaluating subscriptions failed", error);
          this.resume(running, key, undefined);
        },
      );
    }
    waiting.push({ pass, own });
  }

  /** `running` finished: every pass waiting for it goes on, synchronously, and they close one batch. */
  private resume(running: Promise<Outcome>, key: string, outcome: Outcome | undefined) {
    if (this.inFlight.get(key) === running) this.inFlight.delete(key);
    const waiting = this.waitingFor.get(running) ?? [];
    this.waitingFor.delete(running);
    this.engine.detached(() => {
      for (const { pass, own } of waiting) {
        if (own) {
          if (outcome === undefined) this.nextSub(pass);
          else pass.ran = outcome;
        }
        this.advance(pass);
      }
      this.closeBatch();
    });
  }

  /** The passes have held the event loop for a slice: they go on after sockets and timers had a turn. */
  private pause(pass: Pass) {
    if (this.paused.length === 0) {
      setImmediate(() =>
        this.engine.detached(() => {
          const passes = this.paused;
          this.paused = [];
          for (const p of passes) this.advance(p);
          this.closeBatch();
        }),
      );
    }
    this.paused.push(pass);
  }

  /** The passes completed since the last batch: handed over together once durable, after the batch before. */
  private closeBatch() {
    if (this.completed.length === 0) return;
    const batch = this.completed;
    this.completed = [];
    // Taken now, not when the passes started: their runs may have seen later commits.
    const durable = this.durableAt(this.engine.currentTs());
    this.handOver = this.handOver
      .then(() => durable)
      .then(
        () => this.deliver(batch, true),
        (error: unknown) => {
          console.error("local-backend: delivering query updates failed", error);
          this.deliver(batch, false);
        },
      );
  }

  private deliver(batch: Pass[], durable: boolean) {
    const handedOver = tracing ? epochMs() : 0;
    for (const pass of batch) {
      const { owner, flow } = pass;
      if (durable && pass.updates.length > 0) {
        try {
          if (tracing)
            for (const { trace } of pass.updates) if (trace) trace.handedOver = handedOver;
          owner.flush(pass.updates, pass.ts);
        } catch (error) {
          console.error("local-backend: delivering query updates failed", error);
        }
      }
      flow.undelivered -= 1;
      if (pass.coveredTs > flow.completedTs) flow.completedTs = pass.coveredTs;
      this.settle(owner, flow);
    }
  }

  /** Wakes the owner's waiters its progress satisfies; forgets an owner with nothing left. */
  private settle(owner: SubscriberOwner, flow: Flow) {
    if (this.idle(flow) && this.notifiedTs > flow.completedTs) flow.completedTs = this.notifiedTs;
    if (flow.waiters.length > 0)
      flow.waiters = flow.waiters.filter((w) => {
        if (w.ts > flow.completedTs) return true;
        w.resolve();
        return false;
      });
    if (this.idle(flow) && flow.subscribers === 0 && flow.waiters.length === 0)
      this.flows.delete(owner);
  }
}
