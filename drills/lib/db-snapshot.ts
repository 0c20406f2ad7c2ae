/**
 * Every document of every table (the schema's, stored files' `_storage` and `_scheduled_functions`),
 * read through convex-test's `t.run`, and what changed between two such snapshots.
 */
import type { GenericMutationCtx, GenericDataModel } from "convex/server";
import schema from "../../convex/schema";
import type { TestConvex } from "../../convex/test.setup";

export type StoredDoc = Record<string, unknown> & { _id: string };
export type Row = { table: string; doc: StoredDoc; json: string };
/** Documents by id. */
export type Snapshot = Map<string, Row>;
export type Change = {
  table: string;
  id: string;
  kind: "insert" | "patch" | "delete";
  before?: StoredDoc;
  after?: StoredDoc;
};

export const SYSTEM_TABLES = ["_storage", "_scheduled_functions"] as const;
export const SCHEMA_TABLES = Object.keys(schema.tables);
/** Every table a document id can name. */
export const ALL_TABLES = [...SCHEMA_TABLES, ...SYSTEM_TABLES];

type Ctx = GenericMutationCtx<GenericDataModel>;
type Reader = { collect(): Promise<unknown[]> };

/**
 * The documents are taken out of `t.run` by closure, not returned: a returned value is converted and
 * checked as a function's result twice over, which costs more than reading every table.
 */
export async function snapshot(t: TestConvex): Promise<Snapshot> {
  const dump: Record<string, StoredDoc[]> = {};
  await t.run(async (ctx) => {
    const db = (ctx as unknown as Ctx).db as unknown as {
      query(table: string): Reader;
      system: { query(table: string): Reader };
    };
    for (const table of SCHEMA_TABLES)
      dump[table] = (await db.query(table).collect()) as StoredDoc[];
    for (const table of SYSTEM_TABLES)
      dump[table] = (await db.system.query(table).collect()) as StoredDoc[];
  });
  const rows: Snapshot = new Map();
  for (const [table, docs] of Object.entries(dump))
    for (const doc of docs) rows.set(doc._id, { table, doc, json: JSON.stringify(doc) });
  return rows;
}

export function diff(before: Snapshot, after: Snapshot): Change[] {
  const changes: Change[] = [];
  for (const [id, row] of after) {
    const old = before.get(id);
    if (old === undefined) changes.push({ table: row.table, id, kind: "insert", after: row.doc });
    else if (old.json !== row.json)
      changes.push({ table: row.table, id, kind: "patch", before: old.doc, after: row.doc });
  }
  for (const [id, row] of before)
    if (!after.has(id)) changes.push({ table: row.table, id, kind: "delete", before: row.doc });
  return changes;
}

/** Scheduled functions due now that have not run yet (they run on a timer after the call returns). */
export function dueJobs(rows: Snapshot): number {
  let due = 0;
  for (const { table, doc } of rows.values()) {
    if (table !== "_scheduled_functions") continue;
    const state = doc.state as { kind: string };
    if (state.kind === "pending" && (doc.scheduledTime as number) <= Date.now()) due++;
  }
  return due;
}

/**
 * A snapshot taken once the call's own scheduled functions that are due have run, so their changes
 * count as the call's. convex-test fires them on real timers: yield to the event loop until they start.
 */
export async function settledSnapshot(t: TestConvex): Promise<Snapshot> {
  for (let turn = 0; turn < 1000; turn++) {
    await t.finishInProgressScheduledFunctions();
    const rows = await snapshot(t);
    if (dueJobs(rows) === 0) return rows;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error("scheduled functions due now never ran");
}
