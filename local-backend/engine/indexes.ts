// Every index of every table as a sorted tree of documents, in Convex's order of the index's fields, then
// _creationTime, then _id (system indexes: by_creation_time, by_id). A range scan seeks its first
// document in O(log n) and walks only the documents it returns.
//
// A transaction sees its own writes: each level of the transaction (convex-test nests one per
// ctx.runMutation) writes into copy-on-write clones of the trees it touches (sorted-btree's clone() is
// O(1), a write then copies only the nodes on its path). A nested commit hands its clones to the level
// below, the top-level commit makes them the committed trees, a rollback drops them.
import { createRequire } from "node:module";
import type BTreeClass from "sorted-btree";
import type { Doc } from "./document-store.ts";
import { compareIndexValues, fieldGetter } from "./index-order.ts";

// A CommonJS module whose class is `exports.default`: Node's ESM import would hand over the exports object.
const BTree = (createRequire(import.meta.url)("sorted-btree") as { default: typeof BTreeClass })
  .default;
type BTree<K, V> = BTreeClass<K, V>;

/** A position between documents: the documents whose first fields equal `values` start (tail -1) or end (+1) here. */
export class Probe {
  constructor(
    readonly values: readonly unknown[],
    readonly tail: -1 | 1,
  ) {}
}

type Entry = Doc | Probe;
export type IndexTree = BTree<Entry, undefined>;

export interface IndexDefinition {
  /** The index's own fields; _creationTime and _id follow them. */
  fields: string[];
}

export const SYSTEM_INDEXES: Record<string, string[]> = {
  by_creation_time: ["_creationTime", "_id"],
  by_id: ["_id"],
};

export class Index {
  readonly keyFields: string[];
  readonly compare: (a: Entry, b: Entry) => number;
  /** The order of a document against a probe. */
  readonly compareToProbe: (doc: Doc, probe: Probe) => number;

  constructor(
    readonly name: string,
    fields: string[],
  ) {
    this.keyFields = fields.includes("_id") ? fields : [...fields, "_creationTime", "_id"];
    const getters = this.keyFields.map(fieldGetter);
    const n = getters.length;
    const probeVsDoc = (probe: Probe, doc: Doc): number => {
      const values = probe.values;
      for (let i = 0; i < values.length; i++) {
        const c = compareIndexValues(values[i], getters[i](doc));
        if (c !== 0) return c;
      }
      return probe.tail;
    };
    this.compareToProbe = (doc, probe) => -probeVsDoc(probe, doc);
    this.compare = (a, b) => {
      if (a === b) return 0;
      if (a instanceof Probe) return b instanceof Probe ? compareProbes(a, b) : probeVsDoc(a, b);
      if (b instanceof Probe) return -probeVsDoc(b, a);
      for (let i = 0; i < n; i++) {
        const c = compareIndexValues(getters[i](a), getters[i](b));
        if (c !== 0) return c;
      }
      return 0;
    };
  }

  newTree(): IndexTree {
    return new BTree<Entry, undefined>(undefined, this.compare);
  }

  /** Documents of `tree` from `lower` to `upper` (probes), in `order`. */
  *scan(tree: IndexTree, lower: Probe, upper: Probe, order: "asc" | "desc"): Generator<Doc> {
    if (order === "asc") {
      for (const [doc] of tree.entries(lower)) {
        if (this.compareToProbe(doc as Doc, upper) > 0) return;
        yield doc as Doc;
      }
    } else {
      for (const [doc] of tree.entriesReversed(upper)) {
        if (this.compareToProbe(doc as Doc, lower) < 0) return;
        yield doc as Doc;
      }
    }
  }
}

/** The order of two positions. */
export function compareProbes(a: Probe, b: Probe): number {
  const n = Math.min(a.values.length, b.values.length);
  for (let i = 0; i < n; i++) {
    const c = compareIndexValues(a.values[i], b.values[i]);
    if (c !== 0) return c;
  }
  if (a.values.length === b.values.length) return Math.sign(a.tail - b.tail);
  return a.values.length < b.values.length ? a.tail : -b.tail;
}

/** The committed trees and each open transaction level's clones. */
export class IndexStore {
  /** "table.index" → index */
  private readonly indexes = new Map<string, Index>();
  private readonly byTable = new Map<string, Index[]>();
  private committed = new Map<string, IndexTree>();
  /** One map per open transaction level (outermost first): the trees it has written. */
  private levels: Map<string, IndexTree>[] = [];

  constructor(schemaIndexes: Map<string, { indexDescriptor: string; fields: string[] }[]>) {
    for (const [table, list] of schemaIndexes) {
      this.indexesOf(table);
      for (const { indexDescriptor, fields } of list)
        this.add(table, new Index(`${table}.${indexDescriptor}`, fields));
    }
  }

  private add(table: string, index: Index) {
    this.indexes.set(index.name, index);
    this.byTable.get(table)!.push(index);
  }

  /** The table's indexes; a table not in the schema has the system indexes only. */
  indexesOf(table: string): Index[] {
    let list = this.byTable.get(table);
    if (!list) {
      list = [];
      this.byTable.set(table, list);
      for (const [name, fields] of Object.entries(SYSTEM_INDEXES))
        this.add(table, new Index(`${table}.${name}`, fields));
    }
    return list;
  }

  /** `table.index`'s definition, or undefined when the schema does not declare it. */
  index(table: string, indexName: string): Index | undefined {
    if (indexName in SYSTEM_INDEXES) this.indexesOf(table);
    return this.indexes.get(`${table}.${indexName}`);
  }

  /** The tree the current transaction level sees. */
  visible(index: Index): IndexTree {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const tree = this.levels[i].get(index.name);
      if (tree) return tree;
    }
    return this.committedTree(index);
  }

  private committedTree(index: Index): IndexTree {
    let tree = this.committed.get(index.name);
    if (!tree) this.committed.set(index.name, (tree = index.newTree()));
    return tree;
  }

  /** The committed documents of `table`, in creation order. */
  *committedDocs(table: string): Generator<Doc> {
    const index = this.index(table, "by_creation_time")!;
    for (const doc of this.committedTree(index).keys()) yield doc as Doc;
  }

  /** Replaces every tree by ones holding `docs` (start-up, restore, new schema). */
  rebuild(docs: Iterable<Doc>, tableOf: (id: string) => string) {
    const perTable = new Map<string, Doc[]>();
    for (const doc of docs) {
      const table = tableOf(doc._id);
      let list = perTable.get(table);
      if (!list) perTable.set(table, (list = []));
      list.push(doc);
    }
    this.committed = new Map();
    this.levels = this.levels.map(() => new Map());
    for (const [table, list] of perTable) {
      for (const index of this.indexesOf(table)) {
        // sorted first: appending in order fills the tree's nodes left to right
        const sorted = list.slice().sort(index.compare);
        const tree = index.newTree();
        for (const doc of sorted) tree.set(doc, undefined);
        this.committed.set(index.name, tree);
      }
    }
  }

  beginLevel() {
    this.levels.push(new Map());
  }

  /** A write of the innermost level: `before` is what the level saw, `after` the new version (null: deleted). */
  write(table: string, before: Doc | null, after: Doc | null) {
    const level = this.levels.at(-1);
    for (const index of this.indexesOf(table)) {
      let tree: IndexTree;
      if (level) {
        tree = level.get(index.name) ?? this.visible(index).clone();
        level.set(index.name, tree);
      } else tree = this.committedTree(index);
      if (before) tree.delete(before);
      if (after) tree.set(after, undefined);
    }
  }

  /**
   * A committed document replaced by an equal-keyed new object outside the transaction's own writes
   * (a resolved commit timestamp, a stored file's content type): every tree holding it gets the new one.
   */
  replaceEverywhere(table: string, before: Doc, after: Doc) {
    for (const index of this.indexesOf(table)) {
      const trees = [this.committedTree(index)];
      for (const level of this.levels) {
        const tree = level.get(index.name);
        if (tree) trees.push(tree);
      }
      for (const tree of trees) {
        if (!tree.delete(before)) continue;
        tree.set(after, undefined);
      }
    }
  }

  /** The innermost level committed: its trees become the level below's (or the committed ones). */
  commitLevel() {
    const level = this.levels.pop();
    if (!level) return;
    const into = this.levels.at(-1) ?? this.committed;
    for (const [name, tree] of level) into.set(name, tree);
  }

  rollbackLevel() {
    this.levels.pop();
  }

  /** Hides the open levels (a query run inside a mutation reads committed state). */
  stash(): Map<string, IndexTree>[] {
    const stashed = this.levels;
    this.levels = [];
    return stashed;
  }

  unstash(stashed: Map<string, IndexTree>[]) {
    this.levels = stashed;
  }

  get depth() {
    return this.levels.length;
  }
}
