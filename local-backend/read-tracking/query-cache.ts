// Query results shared by every caller of the same function and arguments (per identity only when
// the run read it), kept until a commit touches what the run read. Subscriptions, the HTTP API and
// ctx.runQuery inside actions all read through it, so a result is computed once per change.
import type { JSONValue } from "convex/values";
import type { Doc } from "../engine/convex-test-internals.ts";
import { ReadSet, type Change } from "../engine/read-set.ts";

/** `journal`: the query journal for the next run (a paginated query's end cursor), as sent to clients. */
export type Outcome =
  | { ok: true; value: JSONValue; logLines: string[]; journal: string | null }
  /** `error` is what the run threw, for callers inside actions, who get it as ctx.runQuery would throw it. */
  | {
      ok: false;
      message: string;
      data: JSONValue | undefined;
      logLines: string[];
      error: unknown;
      journal: string | null;
    };

interface Entry {
  key: string;
  /** The group slot it sits in: the caller's identity while running, ANYONE once done without reading it. */
  slot: string;
  readSet: ReadSet;
  promise: Promise<Outcome>;
  done: boolean;
}

const ANYONE = "*";
const DEFAULT_MAX_ENTRIES = 10_000;

const serialized = new WeakMap<Outcome, string>();

/**
 * The outcome as the sync protocol's QueryUpdated/QueryFailed fields after `queryId`, serialised once
 * per outcome however many subscribers it goes to (also what "did this subscriber's result change" compares).
 */
export function outcomeJson(outcome: Outcome): string {
  let json = serialized.get(outcome);
  if (json === undefined) {
    const journal = JSON.stringify(outcome.journal);
    json = outcome.ok
      ? `"value":${JSON.stringify(outcome.value)},"logLines":${JSON.stringify(outcome.logLines)},"journal":${journal}`
      : `"errorMessage":${JSON.stringify(outcome.message)},"logLines":${JSON.stringify(outcome.logLines)},` +
        `${outcome.data !== undefined ? `"errorData":${JSON.stringify(outcome.data)},` : ""}"journal":${journal}`;
    serialized.set(outcome, json);
  }
  return json;
}

export class QueryCache {
  /** key(udfPath, args) → slot (ANYONE or an identity) → entry */
  private groups = new Map<string, Map<string, Entry>>();
  private running = new Set<Entry>();
  /** Finished entries by every table their run read, so a commit only checks the entries it may touch. */
  private byTable = new Map<string, Set<Entry>>();
  /** Finished entries, least recently used first; entries of retained keys are never evicted. */
  private lru = new Set<Entry>();
  private retained = new Map<string, number>();
  private listeners = new Set<(key: string) => void>();
  /** Query runs performed (for tests and benchmarks). */
  runs = 0;

  constructor(
    private readonly tableOf: (id: string) => string,
    private readonly rangeMatches: (doc: Doc, filter: unknown) => boolean,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  /** A journal is part of the key: a page with fixed boundaries is another result than a first page. */
  static key(canonicalUdfPath: string, args: JSONValue, journal: string | null = null) {
    return `${canonicalUdfPath}\u0000${JSON.stringify(args)}\u0000${journal ?? ""}`;
  }

  /**
   * The cached outcome for `key` as seen by `identity` (a tokenIdentifier, null when signed out), or
   * the outcome of `run`, which must record what it reads in the given read set and never reject.
   * `aliasOf(outcome)` names another key the same finished run also answers (while nothing it read
   * changes), or null.
   */
  get(
    key: string,
    identity: string | null,
    run: (readSet: ReadSet) => Promise<Outcome>,
    aliasOf?: (outcome: Outcome) => string | null,
  ): Promise<Outcome> {
    const who = identity ?? "anonymous";
    let group = this.groups.get(key);
    const cached = group?.get(ANYONE) ?? group?.get(who);
    if (cached) {
      if (cached.done) {
        this.lru.delete(cached);
        this.lru.add(cached);
      }
      return cached.promise;
    }
    if (!group) this.groups.set(key, (group = new Map()));
    const entry: Entry = {
      key,
      slot: who,
      readSet: new ReadSet(),
      done: false,
      promise: undefined as never,
    };
    this.runs += 1;
    this.running.add(entry);
    group.set(who, entry);
    entry.promise = run(entry.readSet).then((outcome) => {
      const live = this.finish(entry);
      const alias = live ? (aliasOf?.(outcome) ?? null) : null;
      if (alias !== null) this.addAlias(entry, alias);
      return outcome;
    });
    return entry.promise;
  }

  /** Whether `key` has an entry `identity` would be answered from (running or finished). */
  has(key: string, identity: string | null): boolean {
    const group = this.groups.get(key);
    return group?.get(ANYONE) !== undefined || group?.get(identity ?? "anonymous") !== undefined;
  }

  /** The finished `entry`'s outcome also answers `key`, until a commit touches what it read. */
  private addAlias(entry: Entry, key: string) {
    let group = this.groups.get(key);
    if (group?.get(ANYONE) ?? group?.get(entry.slot)) return;
    if (!group) this.groups.set(key, (group = new Map()));
    const alias: Entry = { ...entry, key };
    group.set(alias.slot, alias);
    for (const table of this.tablesOf(alias.readSet)) this.byTable.get(table)?.add(alias);
    this.lru.add(alias);
    this.evict();
  }

  /** Keeps `key`'s entries from eviction while something (a subscription) depends on being told of its changes. */
  retain(key: string) {
    this.retained.set(key, (this.retained.get(key) ?? 0) + 1);
  }

  release(key: string) {
    const n = (this.retained.get(key) ?? 0) - 1;
    if (n > 0) this.retained.set(key, n);
    else {
      this.retained.delete(key);
      this.evict();
    }
  }

  /** `listener(key)` runs, synchronously inside the commit, for every entry a commit made stale. */
  onInvalidate(listener: (key: string) => void) {
    this.listeners.add(listener);
  }

  /** Drops every entry the committed `changes` touch. Called synchronously inside each commit. */
  invalidate(changes: readonly Change[]) {
    // A running entry has either not begun its transaction (it will see this commit; its read set is
    // still empty) or has finished reading: queries and mutations never interleave.
    const suspects = new Set(this.running);
    for (const change of changes)
      for (const entry of this.byTable.get(change.table) ?? []) suspects.add(entry);
    const stale = new Set<string>();
    for (const entry of suspects) {
      if (!entry.readSet.touchedBy(changes, this.rangeMatches)) continue;
      this.drop(entry);
      stale.add(entry.key);
    }
    for (const key of stale) for (const listener of this.listeners) listener(key);
  }

  /** Drops everything (new code was loaded): every key with entries counts as stale. */
  invalidateAll() {
    const keys = [...this.groups.keys()];
    this.groups.clear();
    this.byTable.clear();
    this.lru.clear();
    for (const key of keys) for (const listener of this.listeners) listener(key);
  }

  get size() {
    let n = 0;
    for (const group of this.groups.values()) n += group.size;
    return n;
  }

  /** Files a finished run; false when a commit made it stale while it ran. */
  private finish(entry: Entry): boolean {
    entry.done = true;
    this.running.delete(entry);
    const group = this.groups.get(entry.key);
    if (group?.get(entry.slot) !== entry) return false; // made stale by a commit while running
    if (!entry.readSet.identity) {
      group.delete(entry.slot);
      const previous = group.get(ANYONE);
      if (previous) this.drop(previous);
      entry.slot = ANYONE;
      group.set(ANYONE, entry);
    }
    for (const table of this.tablesOf(entry.readSet)) {
      let entries = this.byTable.get(table);
      if (!entries) this.byTable.set(table, (entries = new Set()));
      entries.add(entry);
    }
    this.lru.add(entry);
    this.evict();
    return true;
  }

  private tablesOf(readSet: ReadSet): Set<string> {
    const tables = new Set(readSet.tables);
    for (const id of readSet.ids) tables.add(this.tableOf(id));
    for (const { table } of readSet.ranges) tables.add(table);
    return tables;
  }

  private drop(entry: Entry) {
    const group = this.groups.get(entry.key);
    if (group?.get(entry.slot) === entry) {
      group.delete(entry.slot);
      if (group.size === 0) this.groups.delete(entry.key);
    }
    if (!entry.done) return;
    this.lru.delete(entry);
    for (const table of this.tablesOf(entry.readSet)) this.byTable.get(table)?.delete(entry);
  }

  private evict() {
    if (this.lru.size <= this.maxEntries) return;
    for (const entry of this.lru) {
      if (this.lru.size <= this.maxEntries) return;
      if (!this.retained.has(entry.key)) this.drop(entry);
    }
  }
}
