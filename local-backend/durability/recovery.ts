// Reading the data directory back at start, without ever passing off lost data as a clean start.
//   - The newest readable snapshot is the base: snapshot.json, or when that is corrupt (or missing while
//     a compaction was being done) snapshot.prev.json plus log.prev.jsonl, the log segment that followed it.
//   - Bad bytes at the very end of log.jsonl, with no intact record after them, are a torn write from a
//     crash: cut off, saved next to the log and reported.
//   - Bad bytes with intact records after them are corruption: recovery refuses (RecoveryError, naming
//     the file and byte offset) unless asked to salvage, which keeps every intact record and moves the
//     damaged bytes aside.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  ftruncateSync,
} from "node:fs";
import path from "node:path";
import {
  decodeRecord,
  decodeSnapshot,
  emptyState,
  encodeSnapshot,
  type DecodedRecord,
  type PersistedState,
} from "./log-format.ts";

/** Why the backend cannot start from its data directory; `startBackend` rejects with it. */
export class RecoveryError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly offset?: number,
  ) {
    super(message);
    this.name = "RecoveryError";
  }
}

export interface DamagedRegion {
  offset: number;
  bytes: number;
  reason: string;
}

export interface RecoveryReport {
  /** Intact log records read. */
  records: number;
  /** Set when the log ended with a truncated or corrupt record; the bad bytes are moved aside. */
  tailError?: DamagedRegion & { savedAs: string };
  /** Set when snapshot.json could not be read and the previous snapshot plus the log were used. */
  snapshotFallback?: { reason: string; savedAs: string; restoredFrom: string };
  /** Damaged regions dropped from the middle of a log by `salvage`, per log file. */
  salvaged?: { file: string; regions: DamagedRegion[]; savedAs: string }[];
}

export interface DataFiles {
  snapshotFile: string;
  prevSnapshotFile: string;
  logFile: string;
  prevLogFile: string;
}

interface Scan {
  file: string;
  data: Buffer;
  records: { offset: number; end: number; record: DecodedRecord }[];
  damaged: DamagedRegion[];
  /** The damaged region that ends the file with no record after it, when it is a torn write. */
  tail?: DamagedRegion;
}

export function writeDurably(file: string, content: string | Uint8Array) {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, "w");
  writeFileSync(fd, content);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, file);
  syncDir(path.dirname(file));
}

export function syncDir(dir: string) {
  const fd = openSync(dir, "r");
  fsyncSync(fd);
  closeSync(fd);
}

function readRecordAt(
  data: Buffer,
  offset: number,
): { record: DecodedRecord; end: number } | { error: string } {
  const newline = data.indexOf(0x0a, offset);
  if (newline === -1) return { error: "truncated record (no newline)" };
  const decoded = decodeRecord(data.toString("utf8", offset, newline));
  return "error" in decoded ? decoded : { record: decoded, end: newline + 1 };
}

/** Where the first intact record at or after `from` starts: at a line start, or inside a damaged line. */
function nextRecordStart(data: Buffer, from: number): number | null {
  for (
    let space = data.indexOf(" {", from + 8);
    space !== -1;
    space = data.indexOf(" {", space + 1)
  ) {
    const start = space - 8;
    if (
      /^[0-9a-f]{8}$/.test(data.toString("latin1", start, space)) &&
      !("error" in readRecordAt(data, start))
    )
      return start;
  }
  return null;
}

function scanLog(file: string, isLast: boolean): Scan {
  const data = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
  const scan: Scan = { file, data, records: [], damaged: [] };
  let offset = 0;
  while (offset < data.length) {
    const read = readRecordAt(data, offset);
    if (!("error" in read)) {
      scan.records.push({ offset, end: read.end, record: read.record });
      offset = read.end;
      continue;
    }
    const next = nextRecordStart(data, offset + 1) ?? data.length;
    scan.damaged.push({ offset, bytes: next - offset, reason: read.error });
    offset = next;
  }
  // A crash can only tear the end of the log being written; a compacted segment was complete.
  const last = scan.damaged.at(-1);
  if (isLast && last && last.offset + last.bytes === data.length) scan.tail = scan.damaged.pop();
  return scan;
}

function readSnapshot(file: string): PersistedState | { error: string } | null {
  return existsSync(file) ? decodeSnapshot(readFileSync(file, "utf8")) : null;
}

/** The base state and the log segments to replay on top of it. */
function chooseBase(files: DataFiles): {
  state: PersistedState;
  logs: string[];
  fallback?: string;
} {
  const current = readSnapshot(files.snapshotFile);
  if (current && !("error" in current)) return { state: current, logs: [files.logFile] };
  const previous = readSnapshot(files.prevSnapshotFile);
  const refuse = (detail: string) =>
    new RecoveryError(
      `${detail}. Nothing was changed; restore the data directory from a backup (starting without the snapshot would lose every change it holds).`,
      files.snapshotFile,
    );
  if (previous && "error" in previous) {
    const currentProblem = current
      ? `${files.snapshotFile} is corrupt (${current.error}) and so is `
      : "";
    throw refuse(
      `${currentProblem}the previous snapshot ${files.prevSnapshotFile} (${previous.error})`,
    );
  }
  if (current && !previous) {
    throw refuse(
      `${files.snapshotFile} is corrupt (${current.error}) and there is no previous snapshot (${path.basename(files.prevSnapshotFile)}) to fall back to`,
    );
  }
  return {
    state: previous ?? emptyState(),
    logs: [files.prevLogFile, files.logFile],
    ...(current ? { fallback: current.error } : {}),
  };
}

function corruptionError(scans: Scan[]): RecoveryError {
  const index = scans.findIndex((scan) => scan.damaged.length > 0);
  const { file, damaged } = scans[index];
  const first = damaged[0];
  const after =
    scans[index].records.filter((r) => r.offset > first.offset).length +
    scans.slice(index + 1).reduce((n, scan) => n + scan.records.length, 0);
  const total = scans.reduce((n, scan) => n + scan.damaged.length, 0);
  return new RecoveryError(
    `${file} is corrupt: ${first.reason} at byte ${first.offset} (${first.bytes} bytes), with ${after} intact records after it` +
      `${total > 1 ? ` (${total} damaged regions in all)` : ""}. This is not a torn write from a crash, and starting would ` +
      `silently lose acknowledged data, so nothing was changed. Start with --salvage to keep every intact record and move the ` +
      `damaged bytes aside (next to the log).`,
    file,
    first.offset,
  );
}

function apply(state: PersistedState, record: DecodedRecord, baseTs: bigint) {
  if (record.kind === "file") {
    state.files.set(record.storageId, record.contentType);
    return;
  }
  state.nextDocId = Math.max(state.nextDocId, record.nextDocId);
  // Records the base snapshot already holds (the segment before a fallback snapshot's successor).
  if (record.ts <= baseTs) return;
  state.ts = record.ts;
  state.lastCreationTime = Math.max(state.lastCreationTime, record.lastCreationTime);
  for (const [id, doc] of record.writes) {
    if (doc === null) {
      state.docs.delete(id);
      state.files.delete(id);
    } else state.docs.set(id, doc);
  }
  if (record.request) state.requests.push(record.request);
}

/** Ids are never issued twice: a lost commit record may have named the highest id counter so far. */
function resumeCountersPast(bytes: Buffer, state: PersistedState) {
  for (const match of bytes.toString("latin1").matchAll(/\{"ts":"\d+","n":(\d+),"c":/g)) {
    state.nextDocId = Math.max(state.nextDocId, Number(match[1]));
  }
}

/** Rewrites the log with its intact records only; the damaged bytes go to `<file>.damaged-<time>`. */
function salvage(
  scan: Scan,
  stamp: number,
): { file: string; regions: DamagedRegion[]; savedAs: string } {
  const savedAs = `${scan.file}.damaged-${stamp}`;
  writeDurably(
    savedAs,
    Buffer.concat(scan.damaged.map((r) => scan.data.subarray(r.offset, r.offset + r.bytes))),
  );
  writeDurably(
    scan.file,
    Buffer.concat(scan.records.map((r) => scan.data.subarray(r.offset, r.end))),
  );
  return { file: scan.file, regions: scan.damaged, savedAs };
}

function truncate(file: string, length: number) {
  const fd = openSync(file, "r+");
  ftruncateSync(fd, length);
  fsyncSync(fd);
  closeSync(fd);
}

/**
 * Reads the data directory into a state. Throws RecoveryError, before changing anything, when the
 * snapshots cannot be read or a log is corrupt and `salvage` is not set.
 */
export function recoverState(
  files: DataFiles,
  options: { salvage?: boolean },
): { state: PersistedState; report: RecoveryReport; logRecords: number; logBytes: number } {
  const base = chooseBase(files);
  const scans = base.logs.map((file, i) => scanLog(file, i === base.logs.length - 1));
  if (!options.salvage && scans.some((scan) => scan.damaged.length > 0))
    throw corruptionError(scans);

  const { state } = base;
  const baseTs = state.ts;
  const report: RecoveryReport = { records: 0 };
  const stamp = Date.now();
  for (const scan of scans) {
    for (const { record } of scan.records) apply(state, record, baseTs);
    report.records += scan.records.length;
    for (const region of [...scan.damaged, ...(scan.tail ? [scan.tail] : [])]) {
      resumeCountersPast(scan.data.subarray(region.offset, region.offset + region.bytes), state);
    }
    if (scan.tail) {
      const savedAs = `${scan.file}.corrupt-${stamp}`;
      writeFileSync(savedAs, scan.data.subarray(scan.tail.offset));
      report.tailError = { ...scan.tail, savedAs };
    }
    if (scan.damaged.length > 0) (report.salvaged ??= []).push(salvage(scan, stamp));
    else if (scan.tail) truncate(scan.file, scan.tail.offset);
  }
  for (const id of state.files.keys()) if (!state.docs.has(id)) state.files.delete(id);

  if (base.fallback !== undefined) {
    const savedAs = `${files.snapshotFile}.corrupt-${stamp}`;
    renameSync(files.snapshotFile, savedAs);
    report.snapshotFallback = {
      reason: base.fallback,
      savedAs,
      restoredFrom: files.prevSnapshotFile,
    };
  }
  // The base was not snapshot.json: write it, so that the next compaction rotates a readable
  // snapshot (not a corrupt or missing one) into snapshot.prev.json.
  if (base.logs.length > 1)
    writeDurably(files.snapshotFile, encodeSnapshot({ ...state, docs: state.docs.values() }));
  const current = scans.at(-1)!;
  const tailLength = current.tail?.bytes ?? 0;
  const logBytes =
    current.data.length - tailLength - current.damaged.reduce((n, r) => n + r.bytes, 0);
  return { state, report, logRecords: current.records.length, logBytes };
}

/** What a recovery did, for the operator (one line each). */
export function describeRecovery(report: RecoveryReport, files: DataFiles): string[] {
  const lines: string[] = [];
  const fallback = report.snapshotFallback;
  if (fallback) {
    lines.push(
      `local-backend: ${files.snapshotFile} is corrupt (${fallback.reason}); moved to ${fallback.savedAs}, ` +
        `restored from ${fallback.restoredFrom} and the log segments after it.`,
    );
  }
  for (const { file, regions, savedAs } of report.salvaged ?? []) {
    const where = regions
      .map((r) => `${r.bytes} bytes at byte ${r.offset} (${r.reason})`)
      .join(", ");
    lines.push(
      `local-backend: --salvage: dropped damaged bytes from ${file}: ${where}; saved to ${savedAs}.`,
    );
  }
  if (report.salvaged)
    lines.push(`local-backend: --salvage: ${report.records} intact log records were kept.`);
  const tail = report.tailError;
  if (tail) {
    lines.push(
      `local-backend: ${tail.reason} at byte ${tail.offset} of ${files.logFile}: ${tail.bytes} bytes ignored (saved to ${tail.savedAs}); ` +
        `${report.records} complete records before it were restored.`,
    );
  }
  return lines;
}
