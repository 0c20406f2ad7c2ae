// Candidate documents for a query. convex-test has no real indexes: each query scans the
// whole database. We keep ids per table, and per index a bucket on its first field, so an
// index range starting with .eq(firstField, v) only looks at documents having that value.
// convex-test still applies the full range and filters to the candidates, so a superset is fine.
import { convexToJson, type Value } from "convex/values";
import type { Doc, IndexDefinitions, QuerySource } from "./convex-test-internals.ts";

const valueAt = (doc: Doc, fieldPath: string): unknown => {
  let value: unknown = doc;
  for (const part of fieldPath.split("."))
    value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
};
const docKey = (value: unknown) =>
  value === undefined ? "undefined" : JSON.stringify(convexToJson(value as Value));
const filterKey = (json: unknown) =>
  json !== null && typeof json === "object" && "$undefined" in json
    ? "undefined"
    : JSON.stringify(json);

export class TableIndex {
  private readonly tables = new Map<string, Set<string>>();
  /** "table.index" → first field → value key → ids */
  private readonly buckets = new Map<
    string,
    { field: string; byValue: Map<string, Set<string>> }
  >();

  constructor(
    private readonly tableOf: (id: string) => string,
    indexes: IndexDefinitions,
  ) {
    for (const [table, list] of indexes) {
      for (const index of list)
        this.buckets.set(`${table}.${index.indexDescriptor}`, {
          field: index.fields[0],
          byValue: new Map(),
        });
    }
  }

  private ids(table: string): Set<string> {
    let ids = this.tables.get(table);
    if (!ids) this.tables.set(table, (ids = new Set()));
    return ids;
  }

  private bucketsOf(table: string) {
    const out = [];
    for (const [name, bucket] of this.buckets) if (name.startsWith(`${table}.`)) out.push(bucket);
    return out;
  }

  /** Records the committed change of one document. */
  update(id: string, before: Doc | null, after: Doc | null) {
    const table = this.tableOf(id);
    if (after) this.ids(table).add(id);
    else this.ids(table).delete(id);
    for (const { field, byValue } of this.bucketsOf(table)) {
      const oldKey = before ? docKey(valueAt(before, field)) : null;
      const newKey = after ? docKey(valueAt(after, field)) : null;
      if (oldKey === newKey) continue;
      if (oldKey !== null) byValue.get(oldKey)?.delete(id);
      if (newKey !== null) {
        let set = byValue.get(newKey);
        if (!set) byValue.set(newKey, (set = new Set()));
        set.add(id);
      }
    }
  }

  /** Committed ids of `table` that may match `source`. */
  candidates(table: string, source: QuerySource | undefined): Iterable<string> {
    const first = source?.type === "IndexRange" ? source.range?.[0] : undefined;
    if (first?.type === "Eq" && source?.indexName) {
      const indexName = source.indexName.split(".")[1];
      if (indexName === "by_id") return typeof first.value === "string" ? [first.value] : [];
      const bucket = this.buckets.get(source.indexName);
      if (bucket && bucket.field === first.fieldPath)
        return bucket.byValue.get(filterKey(first.value)) ?? [];
    }
    return this.tables.get(table) ?? [];
  }
}
