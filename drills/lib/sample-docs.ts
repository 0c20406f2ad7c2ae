/**
 * A valid document for any table, built from the table's validator in the schema, so that every table
 * (a new one too) has ids to throw at the functions.
 */
import schema from "../../convex/schema";
import type { ValidatorJson } from "./arg-slots";

/** The validator JSON of a schema table's documents (convex keeps it on the table definition). */
export function tableValidator(table: string): ValidatorJson {
  const tables = schema.tables as unknown as Record<string, { validator: { json: ValidatorJson } }>;
  return tables[table].validator.json;
}

/**
 * A value `validator` accepts: ids from `idOf(table)` (undefined when there is none yet: then the
 * value cannot be built), optional fields left out, a day from now for numbers (expiry times).
 */
export function sampleValue(
  validator: ValidatorJson,
  idOf: (table: string) => string | undefined,
  label: string,
): unknown {
  switch (validator.type) {
    case "id":
      return idOf(validator.tableName);
    case "string":
      return `sample ${label}`;
    case "number":
      return Date.now() + 24 * 3_600_000;
    case "bigint":
      return 0n;
    case "boolean":
      return false;
    case "null":
    case "any":
      return null;
    case "bytes":
      return new ArrayBuffer(0);
    case "literal":
      return validator.value;
    case "array":
    case "record":
      return validator.type === "array" ? [] : {};
    case "union": {
      for (const member of validator.value) {
        const value = sampleValue(member, idOf, label);
        if (value !== undefined) return value;
      }
      return undefined;
    }
    case "object": {
      const doc: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(validator.value)) {
        if (field.optional) continue;
        const value = sampleValue(field.fieldType, idOf, `${label}.${key}`);
        if (value === undefined) return undefined;
        doc[key] = value;
      }
      return doc;
    }
  }
}

export function sampleDocument(
  table: string,
  idOf: (table: string) => string | undefined,
): Record<string, unknown> | undefined {
  return sampleValue(tableValidator(table), idOf, table) as Record<string, unknown> | undefined;
}
