// A transaction's document reads and writes by id: db.get, db.insert, db.patch, db.replace and
// db.delete with Convex's checks in Convex's order and with its texts (the id's validity and table, a
// document that does not exist, the schema, the system fields, and the document's size and nesting
// through `checkWrite`). What a read sees and where a write goes (the transaction's write layers over
// the committed documents) is the caller's (engine/document-store.ts): this module keeps no documents.
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import { decodeId } from "./ids.ts";
import { checkSchema, committedValue, type ValidatorJson } from "./convex-values.ts";
import type { Doc } from "./document-store.ts";

/** A deployment's document ids (durability/table-numbers.ts). */
export interface DocumentIds {
  /** A new random id of `table`. */
  newId(table: string): string;
  /** The table of a valid id whose table number is known, else null. */
  tableOf(id: string): string | null;
}

/** What DocumentWrites reads and writes through. */
export interface DocumentWritesHost {
  ids: DocumentIds;
  /** The document as the open transaction sees it (its levels' write, else the committed one). */
  visible(id: string): Doc | null;
  /** Whether the id names a document committed or written by the open transaction (deleted ones too). */
  taken(id: string): boolean;
  /** Puts a write in the open transaction's innermost level (null: a delete). */
  write(id: string, value: Doc | null): void;
  /** The schema's validator of a table's documents; undefined when its documents are not checked. */
  documentType(table: string): ValidatorJson | undefined;
  /** Convex's checks of a document about to be written (size, nesting, system fields); throws why not. */
  checkWrite(id: string, doc: Doc): void;
}

/** The largest commit timestamp: what a `v.commitTs()` placeholder is checked as before the commit. */
export const MAX_COMMIT_TS = 2n ** 63n - 1n;

export class DocumentWrites {
  /** The latest `_creationTime` given (Unix ms): each insert gets a later one. */
  lastCreationTime = 0;

  constructor(private readonly host: DocumentWritesHost) {}

  get(table: string | undefined, id: string): Doc | null {
    this.checkId(table, id);
    return this.host.visible(id);
  }

  insert(table: string, value: Record<string, Value>): string {
    this.checkSchema(table, value);
    const id = this.newId(table);
    const now = Date.now();
    const _creationTime = now <= this.lastCreationTime ? this.lastCreationTime + 0.001 : now;
    this.lastCreationTime = _creationTime;
    this.write(id, { ...value, _id: id, _creationTime });
    return id;
  }

  /** `value` as JSON (a field `{"$undefined": …}` removes it), as the syscall hands it over. */
  patch(table: string | undefined, id: string, value: Record<string, JSONValue>) {
    const { _id, _creationTime, ...fields } = this.existing("patch", table, id, value);
    const merged = { ...fields, ...fieldValues(value) };
    this.checkSchema(this.host.ids.tableOf(_id), merged);
    this.write(id, { _id, _creationTime, ...merged });
  }

  replace(table: string | undefined, id: string, value: Record<string, JSONValue>) {
    const document = this.existing("replace", table, id, value);
    const fields = fieldValues(value);
    this.checkSchema(this.host.ids.tableOf(document._id), fields);
    this.write(id, { ...fields, _id: document._id, _creationTime: document._creationTime });
  }

  /**
   * The document a patch or replace of `id` writes over, after Convex's checks of the id, the value
   * and its system fields (which are then dropped from `value`).
   */
  private existing(
    op: "patch" | "replace",
    table: string | undefined,
    id: string,
    value: Record<string, JSONValue>,
  ): Doc {
    this.checkId(table, id);
    if (typeof value !== "object")
      throw new Error(
        `Invalid argument \`value\` in \`db.${op}\`, expected object but got '${typeof value}': ${String(value)}`,
      );
    const document = this.host.visible(id);
    if (document === null)
      throw new Error(
        `${op === "patch" ? "Patch" : "Replace"} on non-existent document with ID "${id}"`,
      );
    checkSystemFields(value, document._id, document._creationTime);
    return document;
  }

  delete(table: string | undefined, id: string) {
    this.checkId(table, id);
    if (this.host.visible(id) === null) throw new Error("Delete on non-existent doc");
    this.host.write(id, null);
  }

  /**
   * An id as Convex checks it for db.get/patch/replace/delete: one that does not decode (length,
   * alphabet, checksum) is an invalid argument, one of another table than the one named is refused,
   * and a valid id of a table that does not exist passes (it names no document).
   */
  checkId(expectedTable: unknown, id: unknown) {
    if (typeof id !== "string")
      throw new Error(
        `Invalid argument \`id\`, expected string but got '${typeof id}': ${String(id)}`,
      );
    if (expectedTable !== undefined && typeof expectedTable !== "string")
      throw new Error(
        `Invalid argument \`tableName\`, expected string but got '${typeof expectedTable}': ${String(expectedTable)}`,
      );
    const table = this.host.ids.tableOf(id);
    if (table === null) {
      const decoded = decodeId(id);
      if ("error" in decoded)
        throw new Error(`Invalid argument \`id\`: Unable to decode ID: ${decoded.error}`);
      return;
    }
    if (expectedTable !== undefined && table !== expectedTable)
      throw new Error(
        `Invalid argument \`id\`: expected to be an Id<"${expectedTable}">, got Id<"${table}"> instead.`,
      );
  }

  /** A fresh random id of `table`: never one a committed or pending document has. */
  private newId(table: string): string {
    for (;;) {
      const id = this.host.ids.newId(table);
      if (!this.host.taken(id)) return id;
    }
  }

  private write(id: string, doc: Doc) {
    this.host.checkWrite(id, doc);
    this.host.write(id, doc);
  }

  /** The schema's check, on the document as it will be committed (a placeholder as the largest timestamp). */
  private checkSchema(table: string | null, doc: Record<string, Value | undefined>) {
    if (table === null) return;
    const validator = this.host.documentType(table);
    if (validator === undefined) return;
    const pending = committedValue(doc as Value, MAX_COMMIT_TS) as typeof doc;
    checkSchema(table, validator, pending, (id) => this.host.ids.tableOf(id));
  }
}

/** A written value's `_id` and `_creationTime` must be the document's own; they are then dropped from it. */
function checkSystemFields(value: Record<string, JSONValue>, _id: string, _creationTime: number) {
  if (value._id !== undefined && value._id !== _id)
    throw new Error(
      `Provided \`_id\` field value "${String(value._id)}" does not match the document ID "${_id}"`,
    );
  if (value._creationTime !== undefined && value._creationTime !== _creationTime)
    throw new Error(
      `Provided \`_creationTime\` field value ${String(value._creationTime)} does not match the document's creation time ${_creationTime}`,
    );
  delete value._id;
  delete value._creationTime;
}

/** A written value's fields as values (a field `{"$undefined": …}` becomes undefined: a patch removes it). */
function fieldValues(value: Record<string, JSONValue>): Record<string, Value | undefined> {
  const out: Record<string, Value | undefined> = {};
  for (const [key, v] of Object.entries(value))
    out[key] =
      typeof v === "object" && v !== null && "$undefined" in v ? undefined : jsonToConvex(v);
  return out;
}
