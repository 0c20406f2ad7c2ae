// Append-only transaction log with group fsync, snapshot compaction and recovery.
// Layout of the data directory:
//   snapshot.json        full state at the last compaction (atomically renamed into place)
//   log.jsonl            one record per committed transaction since: "<crc32 hex> <json>\n"; a sync
//                        client's mutation carries its [sessionId, requestId, result] in the same record
//   files/<storageId>    stored file bytes (fsynced before the record that names them)
import {
  closeSync,
  existsSync,
  fdatasync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  ftruncateSync,
} from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { Doc } from "../engine/convex-test-internals.ts";
import type { Change } from "../engine/read-set.ts";
import type { RecordedRequest } from "../engine/engine.ts";
import type { RequestRecord } from "./session-requests.ts";

export interface PersistedState {
  ts: bigint;
  nextDocId: number;
  lastCreationTime: number;
  docs: Map<string, Doc>;
  /** storageId → content type */
  files: Map<string, string>;
  /** Mutation results by (sessionId, requestId), oldest first: the snapshot's, then each commit's. */
  requests: RequestRecord[];
}

export interface RecoveryReport {
  records: number;
  /** Set when the log ended with a truncated or corrupt record; the bad bytes are moved aside. */
  tailError?: { offset: number; bytes: number; reason: string; savedAs: string };
}

type LogRecord =
  // r: the sync client's [sessionId, requestId, result] whose mutation this commit is.
  | { ts: string; n: number; c: number; w: [string, unknown][]; r?: [string, number, unknown] }
  | { f: string; type: string };

const encode = (record: LogRecord) => {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, "0")} ${json}\n`;
};

export class TransactionLog {
  readonly logFile: string;
  readonly snapshotFile: string;
  readonly filesDir: string;
  private fd: number;
  /** Records appended so far, and how many of them an fdatasync has covered. */
  private appended = 0;
  private synced = 0;
  private syncing: Promise<void> | null = null;
  private recordsSinceSnapshot = 0;
  private bytesSinceSnapshot = 0;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.logFile = path.join(dir, "log.jsonl");
    this.snapshotFile = path.join(dir, "snapshot.json");
    this.filesDir = path.join(dir, "files");
    mkdirSync(this.filesDir, { recursive: true });
    this.fd = -1;
  }

  /** Reads snapshot + log; must be called before any append. */
  recover(): { state: PersistedState; report: RecoveryReport } {
    const state: PersistedState = { ts: 0n, nextDocId: 10000, lastCreationTime: 0, docs: new Map(), files: new Map(), requests: [] };
    if (existsSync(this.snapshotFile)) {
      const snap = JSON.parse(readFileSync(this.snapshotFile, "utf8")) as {
        ts: string;
        nextDocId: number;
        lastCreationTime: number;
        docs: unknown[];
        files: [string, string][];
        requests?: RequestRecord[];
      };
      state.ts = BigInt(snap.ts);
      state.nextDocId = snap.nextDocId;
      state.lastCreationTime = snap.lastCreationTime;
      for (const json of snap.docs) {
        const doc = jsonToConvex(json as never) as Doc;
        state.docs.set(doc._id, doc);
      }
      for (const [id, type] of snap.files) state.files.set(id, type);
      state.requests.push(...(snap.requests ?? []));
    }
    const report: RecoveryReport = { records: 0 };
    const data = existsSync(this.logFile) ? readFileSync(this.logFile) : Buffer.alloc(0);
    let offset = 0;
    while (offset < data.length) {
      const end = data.indexOf(0x0a, offset);
      const reason = end === -1 ? "truncated record (no newline)" : this.apply(data.subarray(offset, end).toString("utf8"), state);
      if (reason) {
        const savedAs = `${this.logFile}.corrupt-${Date.now()}`;
        writeFileSync(savedAs, data.subarray(offset));
        report.tailError = { offset, bytes: data.length - offset, reason, savedAs };
        const fd = openSync(this.logFile, "r+");
        ftruncateSync(fd, offset);
        fsyncSync(fd);
        closeSync(fd);
        break;
      }
      report.records += 1;
      offset = end + 1;
    }
    this.recordsSinceSnapshot = report.records;
    this.bytesSinceSnapshot = offset;
    this.fd = openSync(this.logFile, "a");
    return { state, report };
  }

  /** Returns a reason string when the line is not a valid record. */
  private apply(line: string, state: PersistedState): string | null {
    const space = line.indexOf(" ");
    const json = line.slice(space + 1);
    if (space !== 8 || crc32(json).toString(16).padStart(8, "0") !== line.slice(0, 8)) return "checksum mismatch";
    let record: LogRecord;
    try {
      record = JSON.parse(json) as LogRecord;
    } catch {
      return "unparseable record";
    }
    if ("f" in record) {
      state.files.set(record.f, record.type);
      return null;
    }
    state.ts = BigInt(record.ts);
    state.nextDocId = record.n;
    state.lastCreationTime = record.c;
    for (const [id, json] of record.w) {
      if (json === null) {
        state.docs.delete(id);
        state.files.delete(id);
      } else state.docs.set(id, jsonToConvex(json as never) as Doc);
    }
    if (record.r) state.requests.push([record.r[0], record.r[1], record.ts, record.r[2] as JSONValue]);
    return null;
  }

  private append(record: LogRecord) {
    const line = encode(record);
    writeSync(this.fd, line);
    this.appended += 1;
    this.recordsSinceSnapshot += 1;
    this.bytesSinceSnapshot += Buffer.byteLength(line);
  }

  /** One record: the transaction's writes and, for a sync client's mutation, its result (both or neither survive). */
  appendCommit(ts: bigint, changes: readonly Change[], nextDocId: number, lastCreationTime: number, request?: RecordedRequest) {
    this.append({
      ts: ts.toString(),
      n: nextDocId,
      c: lastCreationTime,
      w: changes.map((c) => [c.id, c.after === null ? null : convexToJson(c.after as Value)]),
      ...(request ? { r: [request.sessionId, request.requestId, request.result] as [string, number, unknown] } : {}),
    });
  }

  /** Writes the bytes durably, then the record naming them. */
  appendFile(storageId: string, type: string, bytes: Uint8Array) {
    const file = path.join(this.filesDir, storageId);
    const fd = openSync(file, "w");
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    this.append({ f: storageId, type });
  }

  removeFile(storageId: string) {
    rmSync(path.join(this.filesDir, storageId), { force: true });
  }

  readFile(storageId: string): Buffer | null {
    const file = path.join(this.filesDir, storageId);
    return existsSync(file) ? readFileSync(file) : null;
  }

  /**
   * Resolves once everything appended before the call is on disk (one fdatasync serves many writers).
   * Records appended later do not hold it up: under a steady stream of commits a caller waits for at
   * most the fdatasync in flight and one more, never for every round that newer records start.
   */
  async sync(): Promise<void> {
    const target = this.appended;
    while (this.synced < target) {
      if (!this.syncing) {
        const covers = this.appended;
        this.syncing = new Promise<void>((resolve, reject) => fdatasync(this.fd, (error) => (error ? reject(error) : resolve())))
          .then(() => {
            if (covers > this.synced) this.synced = covers;
          })
          .finally(() => {
            this.syncing = null;
          });
      }
      await this.syncing;
    }
  }

  needsCompaction(maxRecords = 50_000, maxBytes = 64 * 1024 * 1024): boolean {
    return this.recordsSinceSnapshot > maxRecords || this.bytesSinceSnapshot > maxBytes;
  }

  /** Writes a full snapshot (tmp + fsync + rename) and starts an empty log. Synchronous on purpose:
   * no commit can interleave between the snapshot and the truncation. */
  compact(state: Omit<PersistedState, "docs"> & { docs: Iterable<Doc> }) {
    const tmp = `${this.snapshotFile}.tmp`;
    const docs: unknown[] = [];
    for (const doc of state.docs) docs.push(convexToJson(doc as Value));
    const fd = openSync(tmp, "w");
    writeSync(
      fd,
      JSON.stringify({
        ts: state.ts.toString(),
        nextDocId: state.nextDocId,
        lastCreationTime: state.lastCreationTime,
        docs,
        files: [...state.files],
        requests: state.requests,
      }),
    );
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.snapshotFile);
    const dirFd = openSync(this.dir, "r");
    fsyncSync(dirFd);
    closeSync(dirFd);
    ftruncateSync(this.fd, 0);
    fsyncSync(this.fd);
    this.synced = this.appended;
    this.recordsSinceSnapshot = 0;
    this.bytesSinceSnapshot = 0;
  }

  close() {
    if (this.fd >= 0) {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = -1;
    }
  }
}
