/**
 * Every document of a running local backend, read from its data directory (`snapshot.json`, then
 * `log.jsonl`): every commit is in the log, fsynced, before its caller hears back, so after a call
 * returns its writes are on disk. The log is read on from where the last read stopped; a compaction
 * (the log emptied into a new snapshot) makes the next read start over. A document's table comes
 * from the number inside its id (`tables.json`).
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { decodeRecord, decodeSnapshot } from "../../local-backend/durability/log-format.ts";
import { TableNumbers } from "../../local-backend/durability/table-numbers.ts";
import { encodeId, newInternalId } from "../../local-backend/engine/ids.ts";
import { dueJobs, type Snapshot, type StoredDoc } from "./db-snapshot";

export class DataDirReader {
  private docs = new Map<string, StoredDoc>();
  private offset = 0;
  private snapshotStamp = "";

  constructor(private readonly dataDir: string) {}

  private tables() {
    return TableNumbers.open(this.dataDir);
  }

  private readSnapshot() {
    const file = path.join(this.dataDir, "snapshot.json");
    const stamp = existsSync(file) ? String(statSync(file).mtimeMs) : "none";
    if (stamp === this.snapshotStamp) return;
    this.snapshotStamp = stamp;
    this.docs = new Map();
    this.offset = 0;
    if (stamp === "none") return;
    const state = decodeSnapshot(readFileSync(file, "utf8"));
    if ("error" in state) throw new Error(`snapshot.json: ${state.error}`);
    for (const [id, doc] of state.docs) this.docs.set(id, doc as StoredDoc);
  }

  /** The documents now on disk. */
  snapshot(): Snapshot {
    this.readSnapshot();
    const file = path.join(this.dataDir, "log.jsonl");
    const size = statSync(file).size;
    if (size < this.offset) {
      // compacted between two reads: start over from the new snapshot
      this.snapshotStamp = "";
      return this.snapshot();
    }
    if (size > this.offset) {
      const fd = openSync(file, "r");
      const bytes = Buffer.alloc(size - this.offset);
      readSync(fd, bytes, 0, bytes.length, this.offset);
      closeSync(fd);
      // only whole lines: a record being appended is read next time
      const end = bytes.lastIndexOf(0x0a) + 1;
      for (const line of bytes.subarray(0, end).toString("utf8").split("\n")) {
        if (line === "") continue;
        const record = decodeRecord(line);
        if ("error" in record) throw new Error(`log.jsonl: ${record.error}`);
        if (record.kind !== "commit") continue;
        for (const [id, doc] of record.writes)
          if (doc === null) this.docs.delete(id);
          else this.docs.set(id, doc as StoredDoc);
      }
      this.offset += end;
    }
    const tables = this.tables();
    const rows: Snapshot = new Map();
    for (const [id, doc] of this.docs) {
      const table = tables.tableOf(id) ?? "unknown";
      rows.set(id, { table, doc, json: JSON.stringify(doc) });
    }
    return rows;
  }

  /**
   * The documents once the scheduled functions due now have run (the backend runs them on timers
   * after the call that scheduled them returned); polled, as nothing outside the backend hears of it.
   */
  async settled(): Promise<Snapshot> {
    for (let turn = 0; turn < 500; turn++) {
      const rows = this.snapshot();
      if (dueJobs(rows) === 0) return rows;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error("scheduled functions due now never ran");
  }

  /** A well-formed id of `table` that names no document: what a missing resource looks like. */
  missingId(table: string): string | undefined {
    const tables = this.tables();
    if (![...tables.tables()].includes(table)) return undefined;
    return encodeId(tables.numberOf(table), newInternalId());
  }
}
