// What a pushed schema changes (index diffs as the CLI prints them) and whether the documents already
// stored satisfy it: Convex refuses a push whose schema the data does not match.

/** A validator as `v.*().json` encodes it. */
export type ValidatorJson =
  | { type: "null" | "number" | "bigint" | "boolean" | "string" | "bytes" | "any" }
  | { type: "literal"; value: unknown }
  | { type: "id"; tableName: string }
  | { type: "array"; value: ValidatorJson }
  | { type: "record"; keys: ValidatorJson; values: { fieldType: ValidatorJson } }
  | { type: "object"; value: Record<string, { fieldType: ValidatorJson; optional: boolean }> }
  | { type: "union"; value: ValidatorJson[] };

interface TableJson {
  tableName: string;
  indexes?: { indexDescriptor: string; fields: string[] }[];
  searchIndexes?: { indexDescriptor: string; searchField: string; filterFields: string[] }[];
  vectorIndexes?: {
    indexDescriptor: string;
    vectorField: string;
    dimensions: number;
    filterFields: string[];
  }[];
  documentType?: ValidatorJson | null;
}

/** A schema module's `export()`. */
export interface SchemaJson {
  tables: TableJson[];
  schemaValidation: boolean;
}

export type IndexConfig =
  | { name: string; type: "database"; fields: string[] }
  | { name: string; type: "search"; searchField: string; filterFields: string[] }
  | {
      name: string;
      type: "vector";
      dimensions: number;
      vectorField: string;
      filterFields: string[];
    };

export interface IndexDiff {
  added_indexes: IndexConfig[];
  removed_indexes: IndexConfig[];
}

export function indexesOf(schema: SchemaJson | null): IndexConfig[] {
  const out: IndexConfig[] = [];
  for (const t of schema?.tables ?? []) {
    for (const i of t.indexes ?? [])
      out.push({ name: `${t.tableName}.${i.indexDescriptor}`, type: "database", fields: i.fields });
    for (const i of t.searchIndexes ?? [])
      out.push({
        name: `${t.tableName}.${i.indexDescriptor}`,
        type: "search",
        searchField: i.searchField,
        filterFields: i.filterFields,
      });
    for (const i of t.vectorIndexes ?? [])
      out.push({
        name: `${t.tableName}.${i.indexDescriptor}`,
        type: "vector",
        dimensions: i.dimensions,
        vectorField: i.vectorField,
        filterFields: i.filterFields,
      });
  }
  return out;
}

/** An index whose definition changed is removed and added again, as Convex reports it. */
export function diffIndexes(previous: SchemaJson | null, next: SchemaJson | null): IndexDiff {
  const key = (i: IndexConfig) => JSON.stringify(i);
  const before = new Map(indexesOf(previous).map((i) => [key(i), i]));
  const after = new Map(indexesOf(next).map((i) => [key(i), i]));
  return {
    added_indexes: [...after].filter(([k]) => !before.has(k)).map(([, i]) => i),
    removed_indexes: [...before].filter(([k]) => !after.has(k)).map(([, i]) => i),
  };
}

export interface SchemaMismatch {
  tableName: string;
  error: string;
}

/**
 * The first stored document the schema rejects, or null. `tableOf` names an id's table (for `v.id`);
 * documents are convex-test's (values as functions see them).
 */
export function findSchemaMismatch(
  schema: SchemaJson | null,
  docs: Iterable<{ table: string; doc: Record<string, unknown> }>,
  tableOf: (id: string) => string | null,
): SchemaMismatch | null {
  if (!schema?.schemaValidation) return null;
  const types = new Map(schema.tables.map((t) => [t.tableName, t.documentType ?? null]));
  for (const { table, doc } of docs) {
    if (table.startsWith("_")) continue;
    // As on Convex, a table the schema does not name keeps its documents unchecked.
    const type = types.get(table);
    if (!type) continue;
    const { _id, _creationTime, ...fields } = doc;
    const problem = mismatch(type, fields, "", tableOf);
    if (problem !== null)
      return {
        tableName: table,
        error: `Document with ID "${String(_id)}" in table "${table}" does not match the schema: ${problem}`,
      };
  }
  return null;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof ArrayBuffer) &&
  Object.getPrototypeOf(v) === Object.prototype;

const describe = (v: unknown) =>
  v === null
    ? "null"
    : typeof v === "bigint"
      ? "int64"
      : v instanceof ArrayBuffer
        ? "bytes"
        : Array.isArray(v)
          ? "array"
          : typeof v;

/** Why `value` does not match `type` (with the field path), or null when it does. */
function mismatch(
  type: ValidatorJson,
  value: unknown,
  at: string,
  tableOf: (id: string) => string | null,
): string | null {
  const where = at ? ` at path ${at}` : "";
  const expected = (what: string) => `Expected ${what}${where}, found ${describe(value)}.`;
  switch (type.type) {
    case "any":
      return null;
    case "null":
      return value === null ? null : expected("null");
    case "number":
      return typeof value === "number" ? null : expected("float64");
    case "bigint":
      return typeof value === "bigint" ? null : expected("int64");
    case "boolean":
      return typeof value === "boolean" ? null : expected("boolean");
    case "string":
      return typeof value === "string" ? null : expected("string");
    case "bytes":
      return value instanceof ArrayBuffer ? null : expected("bytes");
    case "literal": {
      const literal = type.value as unknown;
      const wanted =
        isPlainObject(literal) && typeof literal.$integer === "string"
          ? Buffer.from(literal.$integer, "base64").readBigInt64LE()
          : literal;
      return value === wanted ? null : expected(`literal ${JSON.stringify(type.value)}`);
    }
    case "id":
      return typeof value === "string" && tableOf(value) === type.tableName
        ? null
        : expected(`an id of table "${type.tableName}"`);
    case "array": {
      if (!Array.isArray(value)) return expected("array");
      for (let i = 0; i < value.length; i++) {
        const problem = mismatch(type.value, value[i], `${at}[${i}]`, tableOf);
        if (problem) return problem;
      }
      return null;
    }
    case "record": {
      if (!isPlainObject(value)) return expected("object");
      for (const [k, v] of Object.entries(value)) {
        const problem =
          mismatch(type.keys, k, `${at}.${k}`, tableOf) ??
          mismatch(type.values.fieldType, v, `${at}.${k}`, tableOf);
        if (problem) return problem;
      }
      return null;
    }
    case "object": {
      if (!isPlainObject(value)) return expected("object");
      for (const [k, field] of Object.entries(type.value)) {
        if (value[k] === undefined) {
          if (field.optional) continue;
          return `Object is missing the required field \`${k}\`${where}.`;
        }
        const problem = mismatch(field.fieldType, value[k], `${at}.${k}`, tableOf);
        if (problem) return problem;
      }
      for (const k of Object.keys(value))
        if (!(k in type.value) && value[k] !== undefined)
          return `Object contains extra field \`${k}\` that is not in the validator${where}.`;
      return null;
    }
    case "union":
      return type.value.some((t) => mismatch(t, value, at, tableOf) === null)
        ? null
        : `Value${where} matches none of the union's members.`;
  }
}
