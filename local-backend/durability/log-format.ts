// On-disk formats of the data directory, with their checksums.
//   log record   "<crc32 hex> <json>\n", one per committed transaction or stored file
//   snapshot     one JSON object whose first member, "checksum", is the crc32 of the object without it
//                (snapshots written before checksums existed start with "ts" and are read as they are)
import { crc32 } from "node:zlib";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { Doc } from "../engine/document-store.ts";
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

export const emptyState = (): PersistedState => ({
  ts: 0n,
  nextDocId: 10000,
  lastCreationTime: 0,
  docs: new Map(),
  files: new Map(),
  requests: [],
});

/** One committed transaction: its writes, the id counters after it, and a sync client's mutation result. */
export interface CommitRecord {
  ts: string;
  nextDocId: number;
  lastCreationTime: number;
  /** [id, document as JSON or null when deleted] */
  writes: [string, unknown][];
  /** The sync client's mutation this commit is, with its result (a resend is answered from it). */
  request?: { sessionId: string; requestId: number; result: unknown };
}

/** A stored file whose bytes are in files/<storageId>. */
export interface FileRecord {
  storageId: string;
  contentType: string;
}

export type LogRecord = CommitRecord | FileRecord;

/**
 * Records written before the fields were named (read, never written): n = nextDocId,
 * c = lastCreationTime, w = writes, r = [sessionId, requestId, result]; f = storageId, type = contentType.
 */
type LegacyRecord =
  | { ts: string; n: number; c: number; w: [string, unknown][]; r?: [string, number, unknown] }
  | { f: string; type: string };

function named(record: LogRecord | LegacyRecord): LogRecord {
  if ("f" in record) return { storageId: record.f, contentType: record.type };
  if (!("w" in record)) return record;
  const { ts, n, c, w, r } = record;
  return {
    ts,
    nextDocId: n,
    lastCreationTime: c,
    writes: w,
    ...(r ? { request: { sessionId: r[0], requestId: r[1], result: r[2] } } : {}),
  };
}

/** A log record read back, its documents decoded. */
export type DecodedRecord =
  | {
      kind: "commit";
      ts: bigint;
      nextDocId: number;
      lastCreationTime: number;
      writes: [string, Doc | null][];
      request?: RequestRecord;
    }
  | { kind: "file"; storageId: string; contentType: string };

const hex = (text: string) => crc32(text).toString(16).padStart(8, "0");

export function encodeRecord(record: LogRecord): string {
  const json = JSON.stringify(record);
  return `${hex(json)} ${json}\n`;
}

/** The record in `line` (without its newline), or why it is not one. */
export function decodeRecord(line: string): DecodedRecord | { error: string } {
  const json = line.slice(9);
  if (line[8] !== " " || hex(json) !== line.slice(0, 8)) return { error: "checksum mismatch" };
  try {
    const record = named(JSON.parse(json) as LogRecord | LegacyRecord);
    if ("storageId" in record) {
      if (typeof record.storageId !== "string" || typeof record.contentType !== "string")
        throw new Error("malformed file record");
      return { kind: "file", storageId: record.storageId, contentType: record.contentType };
    }
    if (
      !Array.isArray(record.writes) ||
      !Number.isFinite(record.nextDocId) ||
      !Number.isFinite(record.lastCreationTime)
    )
      throw new Error("malformed commit record");
    const writes = record.writes.map(([id, doc]): [string, Doc | null] => [
      id,
      doc === null ? null : (jsonToConvex(doc as JSONValue) as Doc),
    ]);
    const r = record.request;
    return {
      kind: "commit",
      ts: BigInt(record.ts),
      nextDocId: record.nextDocId,
      lastCreationTime: record.lastCreationTime,
      writes,
      ...(r
        ? {
            request: [r.sessionId, r.requestId, record.ts, r.result as JSONValue] as RequestRecord,
          }
        : {}),
    };
  } catch (error) {
    return {
      error: `unreadable record (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

interface SnapshotJson {
  ts: string;
  nextDocId: number;
  lastCreationTime: number;
  docs: unknown[];
  files: [string, string][];
  requests?: RequestRecord[];
}

const CHECKSUMMED = '{"checksum":"';
const UNCHECKSUMMED = '{"ts":"';

export function encodeSnapshot(
  state: Omit<PersistedState, "docs"> & { docs: Iterable<Doc> },
): string {
  const docs: unknown[] = [];
  for (const doc of state.docs) docs.push(convexToJson(doc as Value));
  const body: SnapshotJson = {
    ts: state.ts.toString(),
    nextDocId: state.nextDocId,
    lastCreationTime: state.lastCreationTime,
    docs,
    files: [...state.files],
    requests: state.requests,
  };
  const json = JSON.stringify(body);
  return `${CHECKSUMMED}${hex(json)}",${json.slice(1)}`;
}

/** The state in a snapshot file's text, or why it cannot be read. */
export function decodeSnapshot(text: string): PersistedState | { error: string } {
  let json = text;
  if (text.startsWith(CHECKSUMMED)) {
    const checksum = text.slice(CHECKSUMMED.length, CHECKSUMMED.length + 8);
    json = `{${text.slice(CHECKSUMMED.length + 10)}`;
    if (
      text.slice(CHECKSUMMED.length + 8, CHECKSUMMED.length + 10) !== '",' ||
      hex(json) !== checksum
    )
      return { error: "checksum mismatch" };
  } else if (!text.startsWith(UNCHECKSUMMED)) return { error: "not a snapshot (unknown format)" };
  try {
    const snap = JSON.parse(json) as SnapshotJson;
    const state: PersistedState = {
      ts: BigInt(snap.ts),
      nextDocId: snap.nextDocId,
      lastCreationTime: snap.lastCreationTime,
      docs: new Map(),
      files: new Map(snap.files),
      requests: [...(snap.requests ?? [])],
    };
    if (!Number.isFinite(state.nextDocId) || !Number.isFinite(state.lastCreationTime))
      throw new Error("malformed counters");
    for (const value of snap.docs) {
      const doc = jsonToConvex(value as JSONValue) as Doc;
      state.docs.set(doc._id, doc);
    }
    return state;
  } catch (error) {
    return {
      error: `unreadable snapshot (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
