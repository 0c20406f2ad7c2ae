// Append-only transaction log with group fdatasync, snapshot compaction and recovery.
// Layout of the data directory:
//   snapshot.json        full state at the last compaction (atomically renamed into place, checksummed)
//   log.jsonl            one record per committed transaction since: "<crc32 hex> <json>\n"; a sync
//                        client's mutation carries its [sessionId, requestId, result] in the same record
//   snapshot.prev.json   the snapshot before, and log.prev.jsonl the log segment from it to snapshot.json:
//                        what recovery falls back to when snapshot.json cannot be read (see recovery.ts)
//   files/<storageId>    stored file bytes (fsynced before the record that names them)
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { link, open } from "node:fs/promises";
import path from "node:path";
import { convexToJson, type Value } from "convex/values";
import type { Doc } from "../engine/document-store.ts";
import { epochMs, traceFsync, traceStage, tracing } from "../stage-trace.ts";
import type { Change } from "../engine/read-set.ts";
import type { RecordedRequest } from "../engine/engine.ts";
import { encodeRecord, encodeSnapshot, type LogRecord, type PersistedState } from "./log-format.ts";
import {
  recoverState,
  syncDir,
  writeDurably,
  type DataFiles,
  type RecoveryReport,
} from "./recovery.ts";

export type { PersistedState } from "./log-format.ts";
export { describeRecovery, RecoveryError, type RecoveryReport } from "./recovery.ts";

export interface RecoverOptions {
  /** Keep every intact record of a corrupt log and move the damaged bytes aside, instead of refusing. */
  salvage?: boolean;
}

export class TransactionLog implements DataFiles {
  readonly logFile: string;
  readonly prevLogFile: string;
  readonly snapshotFile: string;
  readonly prevSnapshotFile: string;
  readonly filesDir: string;
  private fd: number;
  /** Records appended so far, and how many of them an fdatasync has covered. */
  private appended = 0;
  private synced = 0;
  private recordsSinceSnapshot = 0;
  private bytesSinceSnapshot = 0;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.logFile = path.join(dir, "log.jsonl");
    this.prevLogFile = path.join(dir, "log.prev.jsonl");
    this.snapshotFile = path.join(dir, "snapshot.json");
    this.prevSnapshotFile = path.join(dir, "snapshot.prev.json");
    this.filesDir = path.join(dir, "files");
    mkdirSync(this.filesDir, { recursive: true });
    this.fd = -1;
  }

  /** Reads snapshot + log; must be called before any append. Throws RecoveryError when it cannot. */
  recover(options: RecoverOptions = {}): { state: PersistedState; report: RecoveryReport } {
    const { state, report, logRecords, logBytes } = recoverState(this, options);
    this.recordsSinceSnapshot = logRecords;
    this.bytesSinceSnapshot = logBytes;
    this.fd = openSync(this.logFile, "a");
    return { state, report };
  }

  private append(record: LogRecord) {
    const line = encodeRecord(record);
    const started = tracing ? epochMs() : 0;
    writeSync(this.fd, line);
    if (tracing) traceStage("log write (writeSync)", epochMs() - started);
    this.appended += 1;
    this.recordsSinceSnapshot += 1;
    this.bytesSinceSnapshot += Buffer.byteLength(line);
  }

  /** One record: the transaction's writes and, for a sync client's mutation, its result (both or neither survive). */
  appendCommit(
    ts: bigint,
    changes: readonly Change[],
    nextDocId: number,
    lastCreationTime: number,
    request?: RecordedRequest,
  ) {
    this.append({
      ts: ts.toString(),
      nextDocId,
      lastCreationTime,
      writes: changes.map((c) => [c.id, c.after === null ? null : convexToJson(c.after as Value)]),
      ...(request
        ? {
            request: {
              sessionId: request.sessionId,
              requestId: request.requestId,
              result: request.result,
            },
          }
        : {}),
    });
  }

  /** Where a stored file's bytes are. */
  filePath(storageId: string): string {
    return path.join(this.filesDir, storageId);
  }

  /** Streams the blob's bytes to disk durably (a chunk at a time), then appends the record naming them. */
  async appendFile(storageId: string, type: string, blob: Blob) {
    const file = this.filePath(storageId);
    const handle = await open(file, "w");
    try {
      for await (const chunk of blob.stream() as unknown as AsyncIterable<Uint8Array>)
        await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.append({ storageId, contentType: type });
  }

  /** Makes a file already written in the files folder (staged) the stored file's bytes, durably. */
  async adoptFile(storageId: string, type: string, staged: string) {
    const handle = await open(staged, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    // A second name, not a rename: a reader of the staged name keeps its bytes until it is removed.
    await link(staged, this.filePath(storageId));
    this.append({ storageId, contentType: type });
  }

  removeFile(storageId: string) {
    rmSync(this.filePath(storageId), { force: true });
  }

  /** Whether everything appended so far is on disk (sync() would have nothing to do). */
  isSynced(): boolean {
    return this.synced >= this.appended;
  }

  /**
   * Makes everything appended so far durable before it returns: one fdatasync on this thread for all
   * records appended since the last one, none when there are none (callers arriving after it share it).
   * On this thread, as the peer's one fdatasync per write: a pool thread's fdatasync came back only once
   * the pool thread and then the event loop got a CPU, and a record appended while one was in flight
   * waited for it and one more (2-10 times one fdatasync under load, bench/README.md round 4).
   */
  sync(): void {
    if (this.synced >= this.appended) return;
    const covers = this.appended;
    const started = tracing ? epochMs() : 0;
    fdatasyncSync(this.fd);
    if (tracing) traceFsync(started);
    this.synced = covers;
  }

  needsCompaction(maxRecords = 50_000, maxBytes = 64 * 1024 * 1024): boolean {
    return this.recordsSinceSnapshot > maxRecords || this.bytesSinceSnapshot > maxBytes;
  }

  /**
   * Writes a full snapshot and starts an empty log, keeping the snapshot before and the log segment
   * since it as the fallback. Synchronous on purpose: no commit can interleave. Each step is durable
   * before the next, so a crash anywhere leaves a readable snapshot followed by the log segments that
   * complete it (records a snapshot already holds are skipped by their ts when replayed):
   * snapshot.json → snapshot.prev.json, log.jsonl copied to log.prev.jsonl, the new snapshot.json, and
   * only then the log truncated.
   */
  compact(state: Omit<PersistedState, "docs"> & { docs: Iterable<Doc> }) {
    fsyncSync(this.fd);
    const tmp = `${this.snapshotFile}.tmp`;
    const fd = openSync(tmp, "w");
    writeSync(fd, encodeSnapshot(state));
    fsyncSync(fd);
    closeSync(fd);
    if (existsSync(this.snapshotFile)) {
      renameSync(this.snapshotFile, this.prevSnapshotFile);
      syncDir(this.dir);
    }
    writeDurably(this.prevLogFile, readFileSync(this.logFile));
    renameSync(tmp, this.snapshotFile);
    syncDir(this.dir);
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
