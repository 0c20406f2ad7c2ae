// Query results shared by every caller of the same function and arguments (per identity only when
// the run read it), kept until a commit touches what the run read. Subscriptions, the HTTP API and
// ctx.runQuery inside actions all read through it, so a result is computed once per change.
import { createHash } from "node:crypto";
import type { JSONValue } from "convex/values";
import type { Doc } from "../engine/document-store.ts";
import { ReadSet, type Change } from "../engine/read-set.ts";

/** `journal`: the query journal for the next run (a paginated query's end cursor), as sent to clients. */
export type Outcome =
  | {
      ok: true;
      value: JSONValue;
      /** `JSON.stringify(value)` when the run had it already. */
      valueJson?: string;
      logLines: string[];
      journal: string | null;
    }
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
  /** Where the finished entry is filed for invalidation (watchKeys), so dropping it unfiles it. */
  watched?: string[];
  /** The group slot it sits in: the caller's identity while running, ANYONE once done without reading it. */
  slot: string;
  readSet: ReadSet;
  promise: Promise<Outcome>;
  done: boolean;
  /** The run's outcome, once done. */
  outcome?: Outcome;
  /** What the finished entry counts against the byte budget: its serialised outcome. */
  bytes: number;
}

const ANYONE = "*";
const DEFAULT_MAX_ENTRIES = 10_000;
/** Finished outcomes kept, in bytes of their JSON (entries retained by subscriptions count but stay). */
export const DEFAULT_MAX_CACHE_BYTES = 64 * 1024 * 1024;

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
      ? `"value":${outcome.valueJson ?? JSON.stringify(outcome.value)},"logLines":${JSON.stringify(outcome.logLines)},"journal":${journal}`
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
  /**
   * Finished entries by what a write must touch to concern them (watchKeys): a document id, a string
   * an index range fixes a field to (`liveLocations.professionalId = p`), or a whole table. A commit
   * checks only the entries filed under its documents, so a position write looks at the queries of
   * that professional, not at every cached query reading the table.
   */
  private watching = new Map<string, Set<Entry>>();
  /** table → field → how many filed entries fix it: the fields a commit looks up in its documents. */
  private fixedFields = new Map<string, Map<string, number>>();
  /** Finished entries, least recently used first; entries of retained keys are never evicted. */
  private lru = new Set<Entry>();
  private retained = new Map<string, number>();
  /** Sum of `bytes` over the finished entries in `lru`. */
  private bytes = 0;
  private listeners = new Set<(key: string) => void>();
  /** Query runs performed (for tests and benchmarks). */
  runs = 0;

  constructor(
    private readonly rangeMatches: (doc: Doc, filter: unknown) => boolean,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly maxBytes = DEFAULT_MAX_CACHE_BYTES,
  ) {}

  /**
   * A hash of the function, its arguments and journal (a page with fixed boundaries is another result
   * than a first page): a key costs 43 characters however large the arguments a client sent.
   */
  static key(canonicalUdfPath: string, args: JSONValue, journal: string | null = null) {
    return createHash("sha256")
      .update(canonicalUdfPath)
      .update("\u0000")
      .update(JSON.stringify(args))
      .update("\u0000")
      .update(journal ?? "")
      .digest("base64url");
  }

  /** Bytes of the finished outcomes kept (for tests and the README's Limits). */
  get heldBytes() {
    return this.bytes;
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
      bytes: 0,
    };
    this.runs += 1;
    this.running.add(entry);
    group.set(who, entry);
    entry.promise = run(entry.readSet).then((outcome) => {
      entry.outcome = outcome;
      const live = this.finish(entry);
      const alias = live ? (aliasOf?.(outcome) ?? null) : null;
      if (alias !== null) this.addAlias(entry, alias);
      return outcome;
    });
    return entry.promise;
  }

  /** The finished outcome `get` would answer `identity` with right away, if there is one. */
  peek(key: string, identity: string | null): Outcome | undefined {
    const group = this.groups.get(key);
    const cached = group?.get(ANYONE) ?? group?.get(identity ?? "anonymous");
    if (cached?.outcome === undefined) return undefined;
    this.lru.delete(cached);
    this.lru.add(cached);
    return cached.outcome;
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
    this.file(alias);
    this.keep(alias);
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
    const consider = (watchKey: string) => {
      for (const entry of this.watching.get(watchKey) ?? []) suspects.add(entry);
    };
    for (const change of changes) {
      consider(idKey(change.id));
      consider(tableKey(change.table));
      for (const field of this.fixedFields.get(change.table)?.keys() ?? []) {
        for (const doc of [change.before, change.after]) {
          const value = doc?.[field];
          if (typeof value === "string") consider(fieldKey(change.table, field, value));
        }
      }
    }
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
    this.watching.clear();
    this.fixedFields.clear();
    this.lru.clear();
    this.bytes = 0;
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
    entry.bytes = entry.key.length + outcomeJson(entry.outcome!).length;
    this.file(entry);
    this.keep(entry);
    return true;
  }

  /**
   * The keys a write must hit to touch what `readSet` read: each id read; for each index range, the
   * first field it fixes to a string (a write elsewhere in the table leaves the range alone), else
   * its whole table; each table read without a range.
   */
  private watchKeys(readSet: ReadSet): string[] {
    const keys = new Set<string>();
    for (const table of readSet.tables) keys.add(tableKey(table));
    for (const id of readSet.ids) keys.add(idKey(id));
    for (const { table, range } of readSet.ranges) {
      const fixed = (range as { type?: unknown; fieldPath?: unknown; value?: unknown }[]).find(
        (f) =>
          f.type === "Eq" &&
          typeof f.value === "string" &&
          typeof f.fieldPath === "string" &&
          !f.fieldPath.includes("."),
      );
      keys.add(
        fixed === undefined
          ? tableKey(table)
          : fieldKey(table, fixed.fieldPath as string, fixed.value as string),
      );
    }
    return [...keys];
  }

  private file(entry: Entry) {
    entry.watched = this.watchKeys(entry.readSet);
    for (const watchKey of entry.watched) {
      let entries = this.watching.get(watchKey);
      if (!entries) this.watching.set(watchKey, (entries = new Set()));
      entries.add(entry);
      const field = fieldOfKey(watchKey);
      if (field !== null) {
        let fields = this.fixedFields.get(field.table);
        if (!fields) this.fixedFields.set(field.table, (fields = new Map()));
        fields.set(field.field, (fields.get(field.field) ?? 0) + 1);
      }
    }
  }

  private unfile(entry: Entry) {
    for (const watchKey of entry.watched ?? []) {
      const entries = this.watching.get(watchKey);
      if (!entries?.delete(entry)) continue;
      if (entries.size === 0) this.watching.delete(watchKey);
      const field = fieldOfKey(watchKey);
      const fields = field === null ? undefined : this.fixedFields.get(field.table);
      if (field === null || fields === undefined) continue;
      const n = (fields.get(field.field) ?? 0) - 1;
      if (n > 0) fields.set(field.field, n);
      else {
        fields.delete(field.field);
        if (fields.size === 0) this.fixedFields.delete(field.table);
      }
    }
  }

  private drop(entry: Entry) {
    const group = this.groups.get(entry.key);
    if (group?.get(entry.slot) === entry) {
      group.delete(entry.slot);
      if (group.size === 0) this.groups.delete(entry.key);
    }
    if (!entry.done) return;
    if (this.lru.delete(entry)) this.bytes -= entry.bytes;
    this.unfile(entry);
  }

  /** Files a finished entry as most recently used, then evicts down to the budgets. */
  private keep(entry: Entry) {
    this.lru.add(entry);
    this.bytes += entry.bytes;
    this.evict();
  }

  private overBudget() {
    return this.lru.size > this.maxEntries || this.bytes > this.maxBytes;
  }

  private evict() {
    if (!this.overBudget()) return;
    for (const entry of this.lru) {
      if (!this.overBudget()) return;
      if (!this.retained.has(entry.key)) this.drop(entry);
    }
  }
}

const idKey = (id: string) => `i\u0000${id}`;
const tableKey = (table: string) => `t\u0000${table}`;
const fieldKey = (table: string, field: string, value: string) =>
  `f\u0000${table}\u0000${field}\u0000${value}`;

function fieldOfKey(watchKey: string): { table: string; field: string } | null {
  if (!watchKey.startsWith("f\u0000")) return null;
  const [, table, field] = watchKey.split("\u0000", 3);
  return { table, field };
}
