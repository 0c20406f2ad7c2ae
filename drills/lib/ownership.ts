/**
 * Whose a document is, read from the data itself so a new table needs no rule: a user owns their
 * `users` row and every document with a top-level field naming them (`userId`, `customerId`, …),
 * with the professional whose profile it also names (a booking, a review); a
 * document naming no user belongs to the owners of the documents it names (a refresh token to its
 * session's user, a live position to its professional's); a stored file to the owners of the
 * documents that name it. A document that leads to no user (settings, counters) is nobody's.
 */
import type { DrillRole } from "../access-table";
import { ALL_TABLES, type Change, type Snapshot, type StoredDoc } from "./db-snapshot";

/** Every string anywhere inside a value. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

function directUsers(doc: StoredDoc, rows: Snapshot): string[] {
  return Object.entries(doc)
    .filter(([key, v]) => key !== "_id" && typeof v === "string" && rows.get(v)?.table === "users")
    .map(([, v]) => v as string);
}

export function ownersOf(id: string, rows: Snapshot, depth = 3): Set<string> {
  const row = rows.get(id);
  const owners = new Set<string>();
  if (row === undefined || depth === 0) return owners;
  if (row.table === "users") return new Set([id]);
  if (row.table === "_storage") {
    for (const other of rows.values()) {
      if (other.table === "_storage" || other.table === "_scheduled_functions") continue;
      if (!other.json.includes(`"${id}"`)) continue;
      if (stringsIn(other.doc).includes(id))
        for (const o of ownersOf(other.doc._id, rows, depth - 1)) owners.add(o);
    }
    return owners;
  }
  for (const user of directUsers(row.doc, rows)) owners.add(user);
  if (owners.size > 0) {
    // The professional a booking or review names is a party to it, as its customer is.
    for (const [key, v] of Object.entries(row.doc))
      if (key !== "_id" && typeof v === "string" && rows.get(v)?.table === "professionals")
        for (const o of ownersOf(v, rows, depth - 1)) owners.add(o);
    return owners;
  }
  for (const ref of stringsIn(row.doc)) {
    if (ref === id || !rows.has(ref)) continue;
    for (const o of ownersOf(ref, rows, depth - 1)) owners.add(o);
  }
  return owners;
}

/**
 * How far an allowed call may reach into a table: "own" — documents of the caller's (inserting,
 * changing or deleting them); "new" — also inserting documents of others (a notification for the
 * other side of a booking); "any" — any document (admins' functions, counters that are nobody's).
 */
export type WriteScope = "own" | "new" | "any";

export function permitted(
  change: Change,
  scope: WriteScope | undefined,
  callerId: string | undefined,
  before: Snapshot,
  after: Snapshot,
): boolean {
  if (scope === undefined) return false;
  if (scope === "any") return true;
  if (change.kind === "insert" && scope === "new") return true;
  if (callerId === undefined) return false;
  const owners =
    change.kind === "insert" ? ownersOf(change.id, after) : ownersOf(change.id, before);
  return owners.has(callerId);
}

/**
 * Ids to attack with, per table: one document of each owner found there (by the role names of the
 * fixture users: "customer", "otherCustomer+professional", "nobody", "someone" for other users).
 */
export function idsByOwner(
  rows: Snapshot,
  roleOfUser: Map<string, DrillRole>,
): Record<string, { id: string; owners: string }[]> {
  const out: Record<string, { id: string; owners: string }[]> = Object.fromEntries(
    ALL_TABLES.map((table) => [table, []]),
  );
  const seen = new Set<string>();
  for (const { table, doc } of rows.values()) {
    const names = [...ownersOf(doc._id, rows)].map((u) => roleOfUser.get(u) ?? "someone");
    const owners = names.length === 0 ? "nobody" : [...new Set(names)].sort().join("+");
    const key = `${table} ${owners}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out[table].push({ id: doc._id, owners });
  }
  return out;
}
