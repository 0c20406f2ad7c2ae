// The deployment's schema as the engine uses it: each table's indexes, text and vector search indexes and
// document validator, read from the schema module's default export through its `export()` (the JSON
// Convex's CLI pushes), with the checks of names Convex makes when it takes a schema.
import type { ValidatorJson } from "./convex-values.ts";
import type { SearchIndexDefinition } from "./text-search.ts";
import type { VectorIndex } from "./vector-search.ts";

export interface IndexDefinitionJson {
  indexDescriptor: string;
  fields: string[];
}

export interface TableDefinition {
  indexes: IndexDefinitionJson[];
  searchIndexes: SearchIndexDefinition[];
  vectorIndexes: VectorIndex[];
  documentType: ValidatorJson;
}

/** `SchemaDefinition.export()` (convex/server schema.js), parsed. */
interface SchemaExport {
  tables: (Partial<TableDefinition> & { tableName: string })[];
  schemaValidation: boolean;
}

/** Each table's index definitions, by table. */
export type IndexDefinitions = Map<string, IndexDefinitionJson[]>;

export class Schema {
  private constructor(
    readonly tables: ReadonlyMap<string, TableDefinition>,
    /** Whether written documents are checked against their table's `documentType`. */
    readonly schemaValidation: boolean,
  ) {}

  /**
   * The schema a `schema.ts` module's default export defines; null for none (no module, or no default
   * export). Throws, as Convex refuses such a schema, for a name that is not a valid identifier.
   */
  static fromModule(definition: unknown): Schema | null {
    if (definition === undefined || definition === null) return null;
    const exported = (definition as { export?: () => string }).export;
    if (typeof exported !== "function")
      throw new Error("The schema module's default export is not a schema (defineSchema)");
    return Schema.fromJson(JSON.parse(exported.call(definition)) as SchemaExport);
  }

  static fromJson(json: SchemaExport): Schema {
    const tables = new Map<string, TableDefinition>();
    for (const table of json.tables) {
      const definition: TableDefinition = {
        indexes: table.indexes ?? [],
        searchIndexes: table.searchIndexes ?? [],
        vectorIndexes: table.vectorIndexes ?? [],
        documentType: table.documentType ?? { type: "any" },
      };
      checkTable(table.tableName, definition);
      tables.set(table.tableName, definition);
    }
    return new Schema(tables, json.schemaValidation);
  }

  /** The validator written documents of `table` are checked against; undefined when they are not checked. */
  documentType(table: string): ValidatorJson | undefined {
    return this.schemaValidation ? this.tables.get(table)?.documentType : undefined;
  }

  indexes(): IndexDefinitions {
    return new Map([...this.tables].map(([table, t]) => [table, t.indexes]));
  }

  searchIndex(table: string, name: string): SearchIndexDefinition | undefined {
    return this.tables.get(table)?.searchIndexes.find((index) => index.indexDescriptor === name);
  }

  vectorIndex(table: string, name: string): VectorIndex | undefined {
    return this.tables.get(table)?.vectorIndexes.find((index) => index.indexDescriptor === name);
  }
}

const isValidIdentifier = (name: string) =>
  /(^_(id|creationTime)$)|^[a-zA-Z][a-zA-Z0-9_]*$/.test(name);

function checkTable(name: string, table: TableDefinition) {
  if (!isValidIdentifier(name))
    throw new Error(`Table names must be valid identifiers, got "${name}"`);
  checkFieldNames(table.documentType);
  for (const { indexDescriptor } of table.indexes)
    if (!isValidIdentifier(indexDescriptor))
      throw new Error(`Index names must be valid identifiers, got "${indexDescriptor}"`);
}

function checkFieldNames(validator: ValidatorJson) {
  if (validator.type === "object") {
    for (const field of Object.keys(validator.value))
      if (!isValidIdentifier(field))
        throw new Error(`Field names must be valid identifiers, got "${field}"`);
  } else if (validator.type === "union") validator.value.forEach(checkFieldNames);
}
