// What one query run read, recorded at the syscall seam, and whether a commit touches it.
import type { Doc } from "./document-store.ts";

export interface Change {
  id: string;
  table: string;
  before: Doc | null;
  after: Doc | null;
}

type RangeMatcher = (doc: Doc, filter: unknown) => boolean;

export class ReadSet {
  /** Tables read without a usable range (full scans, search, count). */
  readonly tables = new Set<string>();
  readonly ids = new Set<string>();
  readonly ranges: { table: string; range: unknown[] }[] = [];
  identity = false;

  addQuery(query: {
    source: { type: string; tableName?: string; indexName?: string; range?: unknown[] };
  }) {
    const source = query.source;
    if (source.type === "IndexRange" && source.indexName && source.range) {
      this.ranges.push({ table: source.indexName.split(".")[0], range: source.range });
    } else {
      const table = source.tableName ?? source.indexName?.split(".")[0];
      if (table) this.tables.add(table);
    }
  }

  touchedBy(changes: readonly Change[], matches: RangeMatcher): boolean {
    for (const change of changes) {
      if (this.ids.has(change.id) || this.tables.has(change.table)) return true;
      for (const { table, range } of this.ranges) {
        if (table !== change.table) continue;
        for (const doc of [change.before, change.after]) {
          if (doc && range.every((filter) => matches(doc, filter))) return true;
        }
      }
    }
    return false;
  }
}
