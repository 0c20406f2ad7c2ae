// Subscribed queries: grouped by (function, args) and read through the engine's query cache. A commit
// that makes a group's cached result stale marks its subscribers dirty; each connection (owner) then
// re-evaluates its own dirty subscribers in a loop of its own, so one connection with thousands of
// subscriptions delays nobody else's updates or mutation answers (the engine runs queries one at a time
// in arrival order, and the loops let sockets be read every few milliseconds).
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

let turnStarted = performance.now();
let turnMarked = false;

/**
 * Lets sockets and timers run when evaluation loops (all of them together) have held the event loop
 * for SLICE_MS: a promise to await then, else undefined (no promise made per step of a loop).
 */
export function yieldWhenBusy(): Promise<void> | undefined {
  if (!turnMarked) {
    turnMarked = true;
    setImmediate(() => {
      turnMarked = false;
      turnStarted = performance.now();
    });
  }
  if (performance.now() - turnStarted < SLICE_MS) return undefined;
  return new Promise<void>((resolve) => setImmediate(resolve));
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

export interface SubscriberOwner {
  identity: Identity | null;
  admin: boolean;
  /** Changes with `identity`/`admin`: an outcome computed under another epoch is for another caller. */
  identityEpoch: number;
  /** Hands over an outcome that differs from what this subscriber last got, computed under `identityEpoch`. */
  deliver(
    sub: Subscriber,
    outcome: Outcome,
    ts: bigint,
    identityEpoch: number,
    trace?: UpdateTrace,
  ): void;
  /** Called after the deliveries of one pass over the owner's dirty subscribers: one Transition each. */
  endOfFlush(ts: bigint): void;
}

interface Group {
  key: string;
  subs: Set<Subscriber>;
}

/** One owner's re-evaluation state. */
interface Flow {
  subscribers: number;
  dirty: Set<Subscriber>;
  running: boolean;
  /** Passes evaluated but not yet handed to the owner (they wait for the fsync). */
  undelivered: number;
  deliveries: Promise<void>;
  /** The owner has been handed every update of every commit up to this ts. */
  completedTs: bigint;
  waiters: { ts: bigint; resolve: () => void }[];
}

export class Subscriptions {
  private groups = new Map<string, Group>();
  private flows = new Map<SubscriberOwner, Flow>();
  private toStart = new Set<SubscriberOwner>();
  private notifiedTs = 0n;
  private lastDurable: { ts: bigint; promise: Promise<void> } | undefined;

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

  /** evaluate's outcome without waiting when a finished run already answers it (each watcher after the first). */
  private evaluateNow(sub: Subscriber): Outcome | Promise<Outcome> {
    const cached = this.engine.finishedQuery(sub.udfPath, sub.args, sub.owner, sub.journal);
    return cached === undefined ? this.evaluate(sub) : this.keepJournal(sub, cached);
  }

  private keepJournal(sub: Subscriber, outcome: Outcome): Outcome {
    if (outcome.journal !== sub.journal) this.useJournal(sub, outcome.journal);
    return outcome;
  }

  /** durable() once per commit ts, however many owners' passes wait for it. */
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
        running: false,
        undelivered: 0,
        deliveries: Promise.resolve(),
        completedTs: this.notifiedTs,
        waiters: [],
      };
      this.flows.set(owner, flow);
    }
    return flow;
  }

  private idle(flow: Flow) {
    return !flow.running && flow.dirty.size === 0 && flow.undelivered === 0;
  }

  /** Starts `owner`'s loop on the next turn (after the commit that dirtied it has returned). */
  private start(owner: SubscriberOwner) {
    if (this.toStart.size === 0) {
      setImmediate(() =>
        this.engine.detached(() => {
          const owners = [...this.toStart];
          this.toStart.clear();
          for (const o of owners) {
            const flow = this.flows.get(o);
            if (flow && !flow.running) void this.loop(o, flow);
          }
        }),
      );
    }
    this.toStart.add(owner);
  }

  private subscribed(sub: Subscriber) {
    return this.groups.get(sub.groupKey)?.subs.has(sub) === true;
  }

  private async loop(owner: SubscriberOwner, flow: Flow) {
    flow.running = true;
    try {
      while (flow.dirty.size > 0) await this.pass(owner, flow);
    } catch (error) {
      console.error("local-backend: re-evaluating subscriptions failed", error);
    } finally {
      flow.running = false;
      this.settle(owner, flow);
    }
  }

  private async pass(owner: SubscriberOwner, flow: Flow) {
    const ts = this.engine.currentTs();
    const coveredTs = this.notifiedTs;
    const dirty = flow.dirty;
    flow.dirty = new Set();
    // The fsync runs while the queries re-run; results go out only once it is done.
    const durable = this.durableAt(ts);
    const passStarted = tracing ? epochMs() : 0;
    const updates: [Subscriber, Outcome, number, UpdateTrace | undefined][] = [];
    for (const sub of dirty) {
      const pause = yieldWhenBusy();
      if (pause !== undefined) await pause;
      // Removed meanwhile (its connection closed, or the client dropped it): no work for it.
      if (!this.subscribed(sub)) continue;
      const epoch = owner.identityEpoch;
      const trace = sub.trace;
      sub.trace = undefined;
      const now = this.evaluateNow(sub);
      const outcome = now instanceof Promise ? await now : now;
      const json = outcomeJson(outcome);
      if (json === sub.lastJson || !this.subscribed(sub)) continue;
      sub.lastJson = json;
      if (trace !== undefined) {
        trace.passStarted = passStarted;
        trace.evaluated = epochMs();
      }
      updates.push([sub, outcome, epoch, trace]);
    }
    flow.undelivered += 1;
    // Chained, so the next pass can re-run queries while this one waits for its fsync.
    const delivered = () => {
      flow.undelivered -= 1;
      if (coveredTs > flow.completedTs) flow.completedTs = coveredTs;
      this.settle(owner, flow);
    };
    flow.deliveries = flow.deliveries
      .then(() => durable)
      .then(
        () => {
          try {
            const handedOver = tracing ? epochMs() : 0;
            for (const [sub, outcome, epoch, trace] of updates) {
              if (trace !== undefined) trace.handedOver = handedOver;
              owner.deliver(sub, outcome, ts, epoch, trace);
            }
            if (updates.length > 0) owner.endOfFlush(ts);
          } catch (error) {
            console.error("local-backend: delivering query updates failed", error);
          }
          delivered();
        },
        (error) => {
          console.error("local-backend: delivering query updates failed", error);
          delivered();
        },
      );
  }

  /** Wakes the owner's waiters its progress satisfies; forgets an owner with nothing left. */
  private settle(owner: SubscriberOwner, flow: Flow) {
    if (this.idle(flow) && this.notifiedTs > flow.completedTs) flow.completedTs = this.notifiedTs;
    flow.waiters = flow.waiters.filter((w) => {
      if (w.ts > flow.completedTs) return true;
      w.resolve();
      return false;
    });
    if (this.idle(flow) && flow.subscribers === 0 && flow.waiters.length === 0)
      this.flows.delete(owner);
  }
}
