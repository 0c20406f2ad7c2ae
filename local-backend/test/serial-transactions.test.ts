// The engine's transactions on their own: one at a time in arrival order, nested levels that merge
// into their caller's on commit and drop only themselves on rollback, a snapshot level that sees the
// committed documents only, and commit timestamps that always move forward.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Doc } from "../engine/document-store.ts";
import {
  SerialTransactions,
  type LevelledStore,
  type LevelledTracker,
} from "../engine/serial-transactions.ts";
import { WriteLayers, type Writes } from "../engine/write-layers.ts";

/** Committed documents in a map, pending writes in WriteLayers: what ConvexTestDatabase does, minus the trees. */
class MapStore implements LevelledStore<Writes[]> {
  readonly committed = new Map<string, Doc>();
  readonly commits: bigint[] = [];
  private readonly pending = new WriteLayers();

  read(id: string): Doc | null {
    const written = this.pending.written(id);
    return written !== undefined ? written : (this.committed.get(id) ?? null);
  }
  write(id: string, value: Record<string, unknown> | null) {
    this.pending.write(id, value && { ...value, _id: id, _creationTime: 0 });
  }
  beginLevel() {
    this.pending.begin();
  }
  commitLevel(commitTs: bigint | null) {
    const writes = this.pending.commit();
    if (writes === null) return;
    for (const [id, doc] of writes) {
      if (doc === null) this.committed.delete(id);
      else this.committed.set(id, doc);
    }
    this.commits.push(commitTs!);
  }
  rollbackLevel() {
    this.pending.rollback();
  }
  stashLevels() {
    return this.pending.stash();
  }
  unstashLevels(stashed: Writes[]) {
    this.pending.unstash(stashed);
  }
}

/** Records the levels the metrics saw. */
class RecordingTracker implements LevelledTracker {
  readonly events: string[] = [];
  startTransaction(limits?: Record<string, number>) {
    this.events.push(limits ? `start ${JSON.stringify(limits)}` : "start");
  }
  commit() {
    this.events.push("commit");
  }
  rollback() {
    this.events.push("rollback");
  }
  trackRead() {}
  trackWrite() {}
  trackIndexRange() {}
  trackScheduledFunction() {}
}

function transactions() {
  const store = new MapStore();
  const trackers: RecordingTracker[] = [];
  const serial = new SerialTransactions(store, () => {
    const tracker = new RecordingTracker();
    trackers.push(tracker);
    return tracker;
  });
  return { store, trackers, serial };
}

afterEach(() => vi.restoreAllMocks());

describe("serial transactions", () => {
  it("run one at a time, in the order they began", async () => {
    const { serial } = transactions();
    const order: string[] = [];
    const run = async (name: string) => {
      await serial.begin(false);
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`${name} out`);
      serial.commit(false);
    };
    await Promise.all([run("a"), run("b"), run("c")]);
    expect(order).toEqual(["a in", "a out", "b in", "b out", "c in", "c out"]);
    expect(() => serial.getSnapshotTs()).toThrow("can only be called from a query or mutation");
  });

  it("a nested level's writes merge into its caller's on commit and reach the documents with the caller's", async () => {
    const { store, serial } = transactions();
    await serial.begin(false);
    store.write("a", { n: 1 });
    await serial.begin(true);
    expect(store.read("a")?.n).toBe(1);
    store.write("b", { n: 2 });
    serial.commit(true);
    expect(store.read("b")?.n).toBe(2);
    expect(store.committed.size).toBe(0);
    const ts = serial.commit(false);
    expect([...store.committed.keys()]).toEqual(["a", "b"]);
    expect(store.commits).toEqual([ts]);
  });

  it("a rollback drops only the innermost level's writes", async () => {
    const { store, serial } = transactions();
    await serial.begin(false);
    store.write("a", { n: 1 });
    await serial.begin(true);
    store.write("a", { n: 10 });
    store.write("b", { n: 2 });
    serial.rollback(true);
    expect(store.read("a")?.n).toBe(1);
    expect(store.read("b")).toBeNull();
    serial.commit(false);
    expect(store.committed.get("a")?.n).toBe(1);
    expect(store.committed.has("b")).toBe(false);
  });

  it("a rolled-back transaction leaves the documents as they were and lets the next one run", async () => {
    const { store, serial } = transactions();
    await serial.begin(false);
    store.write("a", { n: 1 });
    serial.commit(false);
    await serial.begin(false);
    store.write("a", null);
    serial.rollback(false);
    expect(store.committed.get("a")?.n).toBe(1);
    await serial.begin(false);
    expect(store.read("a")?.n).toBe(1);
    serial.rollback(false);
  });

  it("a commit that throws after its writes still lets the next transaction run", async () => {
    const { store, serial } = transactions();
    await serial.begin(false);
    store.write("a", { n: 1 });
    const commitLevel = store.commitLevel.bind(store);
    store.commitLevel = (commitTs) => {
      commitLevel(commitTs);
      throw new Error("the log's append failed");
    };
    expect(() => serial.commit(false)).toThrow("the log's append failed");
    store.commitLevel = commitLevel;
    await serial.begin(false);
    expect(store.read("a")?.n).toBe(1);
    serial.rollback(false);
  });

  it("a snapshot level sees the committed documents only; the pending writes come back after it", async () => {
    const { store, serial } = transactions();
    await serial.begin(false);
    store.write("a", { n: 1 });
    const stashed = serial.stashWrites();
    await serial.begin(true);
    expect(store.read("a")).toBeNull();
    serial.rollback(true);
    serial.restoreWrites(stashed);
    expect(store.read("a")?.n).toBe(1);
    serial.commit(false);
  });

  it("the metrics take the same levels, a nested one with its own limits", async () => {
    const { serial, trackers } = transactions();
    await serial.begin(false);
    expect(serial.getMetricsTracker()).toBe(trackers[0]);
    await serial.begin(true, { documentsRead: 5 });
    serial.commit(true);
    await serial.begin(true);
    serial.rollback(true);
    serial.commit(false);
    expect(serial.getMetricsTracker()).toBeNull();
    expect(trackers[0].events).toEqual([
      "start",
      'start {"documentsRead":5}',
      "commit",
      "start",
      "rollback",
      "commit",
    ]);
  });

  it("commit timestamps move forward even when the clock stands still or goes back", async () => {
    const { serial } = transactions();
    serial.advanceTo(5_000_000_000_000_000n);
    vi.spyOn(Date, "now").mockReturnValue(1_000);
    const stamps: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      await serial.begin(false);
      expect(serial.getSnapshotTs()).toBe(stamps.at(-1) ?? 5_000_000_000_000_000n);
      stamps.push(serial.commit(false)!);
    }
    expect(stamps).toEqual([
      5_000_000_000_000_001n,
      5_000_000_000_000_002n,
      5_000_000_000_000_003n,
    ]);
    expect(serial.lastCommitTs).toBe(stamps[2]);
  });
});
