// Data directories written before ids took Convex's format (engine/ids.ts) hold convex-test's ids,
// "<digits><table>": a counter padded to 32 characters (000…010102users) or, for a while, 39 random
// digits. On start every such id of a table that has documents becomes a Convex id of that table:
// document ids, every string (nested, record keys included) that is one or holds one as a word (a
// refresh token "<id>|<id>", ids in JSON text), stored files' names under files/, and the results
// kept for resent mutations. Then two compactions leave no old id in the snapshots or logs recovery
// reads.
//
// The new id is derived from the old one (HMAC with a secret of the data directory), not drawn at
// random, so the migration can be interrupted anywhere and simply runs again to the same ids: files
// renamed before a crash already carry the names the state will give them.
import { createHmac } from "node:crypto";
import { existsSync, renameSync } from "node:fs";
import path from "node:path";
import type { JSONValue } from "convex/values";
import type { Doc } from "../engine/document-store.ts";
import { encodeId, INTERNAL_ID_BYTES, tableNumberOf } from "../engine/ids.ts";
import type { PersistedState } from "./log-format.ts";
import { RecoveryError, syncDir } from "./recovery.ts";
import type { TableNumbers } from "./table-numbers.ts";

const LEGACY_ID = /^([0-9]+)([A-Za-z_][A-Za-z0-9_]*)$/;
/** Words that may be such ids, inside any string. */
const LEGACY_ID_WORDS = /(?<![A-Za-z0-9_])[0-9]+[A-Za-z_][A-Za-z0-9_]*/g;
const LEGACY_COUNTER_LENGTH = 32;
const LEGACY_RANDOM_DIGITS = 39;
const LEGACY_FIRST_COUNTER = 10_000n;

/**
 * The table a convex-test id names, or null. A Convex id never starts with a digit here: every table
 * number is above 512, so its varint's first byte is at least 0x80, the first character at least "h".
 */
export function legacyIdTable(value: string): string | null {
  const code = value.charCodeAt(0);
  if (!(code >= 48 && code <= 57) || value.length > 256) return null;
  const match = LEGACY_ID.exec(value);
  if (!match) return null;
  const [, digits, table] = match;
  if (digits.length === LEGACY_RANDOM_DIGITS) return table;
  const counter = BigInt(digits);
  const padded = counter.toString().padStart(LEGACY_COUNTER_LENGTH - table.length, "0");
  return counter >= LEGACY_FIRST_COUNTER && padded === digits ? table : null;
}

export interface IdMigration {
  /** Documents whose id changed. */
  documents: number;
  /** Values equal to an old id (in documents and kept mutation results) that now hold the new one. */
  references: number;
  /** Stored files renamed under files/. */
  files: number;
}

/**
 * Refuses to start when a document's id names a table number tables.json does not hold (the file was
 * lost or replaced): those documents could not be read, and their numbers could be given to new tables.
 */
export function checkTableNumbers(state: PersistedState, tables: TableNumbers) {
  let unknown = 0;
  let example: number | null = null;
  for (const id of state.docs.keys()) {
    if (legacyIdTable(id) !== null) continue;
    const n = tableNumberOf(id);
    if (n !== null && tables.nameOf(n) !== undefined) continue;
    unknown += 1;
    example ??= n;
  }
  if (unknown === 0) return;
  throw new RecoveryError(
    `${tables.file} does not name the tables of ${unknown} documents (table number ${example ?? "unreadable"}); ` +
      "it was lost or replaced. Nothing was changed: restore it from a backup of the data directory.",
    tables.file,
  );
}

/**
 * Rewrites convex-test ids in `state` (in place), renames their files and compacts twice; null when
 * the state holds no such id. `secret` must stay the same across restarts (the storage secret).
 */
export function migrateLegacyIds(
  state: PersistedState,
  tables: TableNumbers,
  log: {
    filesDir: string;
    compact(state: Omit<PersistedState, "docs"> & { docs: Iterable<Doc> }): void;
  },
  secret: string,
): IdMigration | null {
  const known = new Set(tables.tables());
  let documents = 0;
  for (const id of state.docs.keys()) {
    const table = legacyIdTable(id);
    if (table === null) continue;
    known.add(table);
    documents += 1;
  }
  if (documents === 0) return null;

  const newIds = new Map<string, string>();
  const newId = (value: string): string | undefined => {
    const table = legacyIdTable(value);
    if (table === null || !known.has(table)) return undefined;
    let id = newIds.get(value);
    if (id === undefined) {
      const digest = createHmac("sha256", secret).update(`local-backend id migration:${value}`);
      id = encodeId(tables.numberOf(table), digest.digest().subarray(0, INTERNAL_ID_BYTES));
      newIds.set(value, id);
    }
    return id;
  };
  let references = 0;
  const migrateString = (text: string): string =>
    text.replace(LEGACY_ID_WORDS, (word) => {
      const id = newId(word);
      if (id === undefined) return word;
      references += 1;
      return id;
    });
  const migrate = (value: unknown): unknown => {
    if (typeof value === "string") return migrateString(value);
    if (Array.isArray(value)) return value.map(migrate);
    if (value !== null && typeof value === "object" && !(value instanceof ArrayBuffer)) {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) out[migrateString(key)] = migrate(field);
      return out;
    }
    return value;
  };

  const docs = new Map<string, Doc>();
  for (const doc of state.docs.values()) {
    const { _id, ...fields } = doc;
    const id = newId(_id) ?? _id;
    docs.set(id, { ...(migrate(fields) as Omit<Doc, "_id">), _id: id } as Doc);
  }
  state.docs = docs;
  state.requests = state.requests.map(([sessionId, requestId, ts, result]) => [
    sessionId,
    requestId,
    ts,
    migrate(result) as JSONValue,
  ]);

  let files = 0;
  const fileTypes = new Map<string, string>();
  for (const [oldId, type] of state.files) {
    const id = newId(oldId) ?? oldId;
    fileTypes.set(id, type);
    const from = path.join(log.filesDir, oldId);
    if (id !== oldId && existsSync(from)) {
      renameSync(from, path.join(log.filesDir, id));
      files += 1;
    }
  }
  state.files = fileTypes;
  if (files > 0) syncDir(log.filesDir);

  // The first compaction writes the migrated snapshot; the second makes it the fallback too, so that
  // no snapshot or log segment recovery reads holds an old id (an interrupted run migrates again).
  for (let i = 0; i < 2; i++) log.compact({ ...state, docs: state.docs.values() });
  return { documents, references, files };
}

export function describeIdMigration(migration: IdMigration): string {
  return (
    `local-backend: ids migrated to Convex's format: ${migration.documents} documents, ` +
    `${migration.references} references to them, ${migration.files} stored files; a fresh snapshot ` +
    "holds them (sessions signed in before must sign in again)."
  );
}
