// A running backend's data directory: recovery at start, every commit and stored file appended to the
// log, kept mutation results, compaction, and the last flush at close.
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream, existsSync, openAsBlob, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { describeRecovery, TransactionLog, type RecoveryReport } from "./durability/log.ts";
import type { PersistedState } from "./durability/log-format.ts";
import {
  checkTableNumbers,
  describeIdMigration,
  migrateLegacyIds,
} from "./durability/migrate-ids.ts";
import { SessionRequests, type RequestLimits } from "./durability/session-requests.ts";
import { TableNumbers } from "./durability/table-numbers.ts";
import type { StagedBlob } from "./engine/files.ts";
import type { Engine, EngineHooks } from "./engine/engine.ts";
import { BodyTooLarge } from "./http-util.ts";

/** Uploads being received are staged in the files folder under this prefix (never a storage id). */
const STAGED_PREFIX = ".upload-";

/** A stored file's bytes as a Blob read from disk when used, or null once it was deleted. */
async function readFromDisk(file: string, type: string): Promise<Blob | null> {
  try {
    // openAsBlob throws synchronously for a missing file
    return await openAsBlob(file, { type });
  } catch {
    return null;
  }
}

export interface PersistenceOptions {
  /** Start from a corrupt log: keep its intact records, move the damaged bytes aside. */
  salvage?: boolean;
  /** How many sync mutation results are kept to answer resent mutations. */
  requestLimits?: RequestLimits;
  /** Signs file URLs; ids of data written before Convex ids are migrated with it. */
  storageSecret: string;
}

export class Persistence {
  /** Mutation results by (sessionId, requestId): a resent mutation is answered from here. */
  readonly requests: SessionRequests;
  /** storageId → content type of every stored file. */
  private readonly fileTypes: Map<string, string>;
  /** File writes not yet on disk: durable() waits for them. */
  private readonly pendingFiles = new Set<Promise<void>>();
  /** Blobs read from a staged file (stageUpload, stageBlob) → that file: stored by linking it. */
  private readonly stagedFiles = new WeakMap<Blob, string>();
  /** Set once the last flush is done: later commits (of a closing engine) are not recorded. */
  private closed = false;

  private constructor(
    private readonly log: TransactionLog,
    readonly tables: TableNumbers,
    /** The recovered state, until restoreInto hands it to the engine. */
    private state: PersistedState | undefined,
    readonly report: RecoveryReport,
    requestLimits: RequestLimits | undefined,
  ) {
    this.requests = new SessionRequests(requestLimits);
    this.requests.load(state?.requests ?? []);
    this.fileTypes = new Map(state?.files);
  }

  /**
   * Recovers the data directory (snapshot, log, table numbers) and migrates ids written before Convex
   * ids. Throws (having closed the log) when the directory cannot be read.
   */
  static open(log: TransactionLog, dataDir: string, options: PersistenceOptions): Persistence {
    let recovered: ReturnType<TransactionLog["recover"]>;
    let tables: TableNumbers;
    try {
      recovered = log.recover({ salvage: options.salvage });
      tables = TableNumbers.open(dataDir);
      checkTableNumbers(recovered.state, tables);
    } catch (error) {
      log.close();
      throw error;
    }
    const { state, report } = recovered;
    // Uploads staged when the process stopped: stored ones were copied under their id, others never were.
    for (const name of readdirSync(log.filesDir))
      if (name.startsWith(STAGED_PREFIX)) rmSync(path.join(log.filesDir, name), { force: true });
    for (const line of describeRecovery(report, log)) console.warn(line);
    const migrated = migrateLegacyIds(state, tables, log, options.storageSecret);
    if (migrated) console.warn(describeIdMigration(migrated));
    return new Persistence(log, tables, state, report, options.requestLimits);
  }

  /** Whether everything committed and stored so far is on disk already (durable() would not wait). */
  isDurable = () => this.pendingFiles.size === 0 && this.log.isSynced();

  /** The fdatasync every durable() call of this turn of the event loop shares. */
  private syncing: Promise<void> | undefined;

  /**
   * Resolves once everything committed and stored so far is on disk. The fdatasync runs at the end of
   * the turn (setImmediate), so the commits of one turn, such as a burst of queued mutations, share one.
   */
  durable = async () => {
    while (this.pendingFiles.size > 0) await Promise.all(this.pendingFiles);
    if (this.log.isSynced()) return;
    await (this.syncing ??= new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        this.syncing = undefined;
        try {
          this.log.sync();
          resolve();
        } catch (error) {
          reject(error);
        }
      }),
    ));
  };

  /** The engine's commit and file hooks: each is appended to the log; `committed` follows a commit. */
  engineHooks(
    engine: () => Engine,
    committed: (ts: bigint) => void,
  ): Pick<EngineHooks, "onCommit" | "onFileStored" | "stageBlob"> {
    const { log, requests, fileTypes, pendingFiles, stagedFiles } = this;
    return {
      onCommit: (ts, changes, request) => {
        if (this.closed) return;
        const { nextDocId, lastCreationTime } = engine().database.counters();
        log.appendCommit(ts, changes, nextDocId, lastCreationTime, request);
        if (request) requests.record(request.sessionId, request.requestId, ts, request.result);
        for (const change of changes) {
          if (change.table === "_storage" && change.after === null) {
            fileTypes.delete(change.id);
            // Only once the deletion is durable: a crash before must not leave a document without bytes.
            try {
              log.sync();
              log.removeFile(change.id);
            } catch {
              // the bytes stay: an orphan file is harmless, a document without its bytes is not
            }
          }
        }
        committed(ts);
      },
      onFileStored: (storageId, blob) => {
        if (this.closed) return;
        if (blob.type) engine().database.setContentType(storageId, blob.type);
        fileTypes.set(storageId, blob.type);
        const staged = stagedFiles.get(blob);
        const write = (async () => {
          if (staged === undefined) await log.appendFile(storageId, blob.type, blob);
          else await log.adoptFile(storageId, blob.type, staged);
          const { database } = engine();
          if (database.get(storageId) === null) {
            // deleted while its bytes were written: onCommit found no file to remove yet
            log.sync();
            log.removeFile(storageId);
          } else {
            // From now on its bytes are read from its own file: the Blob it was stored from is let go.
            const onDisk = await readFromDisk(log.filePath(storageId), blob.type);
            if (onDisk) database.replaceFile(storageId, onDisk);
          }
          if (staged !== undefined) rmSync(staged, { force: true });
        })();
        pendingFiles.add(write);
        void write.finally(() => pendingFiles.delete(write));
      },
      stageBlob: (blob) => this.stageBlob(blob),
    };
  }

  private stagedPath(): string {
    return path.join(this.log.filesDir, `${STAGED_PREFIX}${randomUUID()}`);
  }

  /**
   * A file about to be stored (`ctx.storage.store`), on disk before its `_storage` document is written,
   * with its sha256 read on the way: a chunk at a time, never whole in memory. A Blob already read from
   * a staged file (an upload) is only hashed.
   */
  async stageBlob(blob: Blob): Promise<StagedBlob> {
    const hash = createHash("sha256");
    const hashed = async function* (chunks: AsyncIterable<Uint8Array>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        yield chunk;
      }
    };
    const chunks = () => blob.stream() as unknown as AsyncIterable<Uint8Array>;
    let file = this.stagedFiles.get(blob);
    let staged = blob;
    if (file === undefined) {
      file = this.stagedPath();
      try {
        await pipeline(chunks(), hashed, createWriteStream(file));
        staged = await openAsBlob(file, { type: blob.type });
      } catch (error) {
        rmSync(file, { force: true });
        throw error;
      }
      this.stagedFiles.set(staged, file);
    } else {
      for await (const chunk of chunks()) hash.update(chunk);
    }
    const discard = () => rmSync(file, { force: true });
    return { blob: staged, sha256: hash.digest("base64"), discard };
  }

  /**
   * Stages an upload's body in the files folder, a chunk at a time, refusing it (BodyTooLarge) past
   * `maxBytes`: a Blob read from disk, and `discard()` to remove the staged copy once it is stored.
   */
  async stageUpload(
    body: AsyncIterable<Uint8Array>,
    maxBytes: number,
    type: string,
  ): Promise<{ blob: Blob; file: string; discard(): void }> {
    const file = this.stagedPath();
    const discard = () => rmSync(file, { force: true });
    try {
      let size = 0;
      await pipeline(
        body,
        async function* (chunks: AsyncIterable<Uint8Array>) {
          for await (const chunk of chunks) {
            size += chunk.byteLength;
            if (size > maxBytes) throw new BodyTooLarge();
            yield chunk;
          }
        },
        createWriteStream(file),
      );
      const blob = await openAsBlob(file, { type });
      this.stagedFiles.set(blob, file);
      return { blob, file, discard };
    } catch (error) {
      discard();
      throw error;
    }
  }

  /** Loads the recovered documents, files (as Blobs read from disk when used) and counters into the engine. */
  async restoreInto(engine: Engine) {
    const state = this.state;
    if (!state) throw new Error("local-backend: the recovered state was already restored");
    this.state = undefined;
    const files = new Map<string, Blob>();
    for (const [id, type] of this.fileTypes) {
      const file = this.log.filePath(id);
      if (existsSync(file)) files.set(id, await openAsBlob(file, { type }));
    }
    engine.restore({
      docs: [...state.docs.values()].map((doc) => {
        const type = this.fileTypes.get(doc._id);
        return type ? { ...doc, contentType: type } : doc;
      }),
      files,
      ts: state.ts,
      nextDocId: state.nextDocId,
      lastCreationTime: state.lastCreationTime,
    });
  }

  /** Writes a snapshot of the engine's state and starts a new log segment. */
  compact(engine: Engine) {
    this.requests.prune();
    this.log.compact({
      ts: engine.currentTs(),
      ...engine.database.counters(),
      docs: engine.database.documents(),
      files: this.fileTypes,
      requests: this.requests.records(),
    });
  }

  /** The periodic check: forgets expired mutation results, compacts a log grown too long. */
  maintain(engine: Engine) {
    this.requests.prune();
    if (this.log.needsCompaction()) this.compact(engine);
  }

  /** Flushes everything, compacts if due, and stops recording. */
  async close(engine: Engine) {
    await this.durable();
    if (this.log.needsCompaction()) this.compact(engine);
    this.closed = true;
    this.log.close();
  }
}
