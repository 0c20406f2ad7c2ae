// Table numbers: every id carries its table's number (engine/ids.ts), so a table's number must never
// change and never be given to another table. They live in <data>/tables.json, rewritten durably
// (tmp + fsync + rename + directory fsync) whenever a table gets its number, which happens before the
// first id of that table exists, so no acknowledged id names a number the file does not hold.
//
// Numbers follow Convex (crates/database/src/bootstrap_model/table.rs, crates/model/src/lib.rs):
// `_scheduled_functions` is 539 and `_storage` 540 (512 + their default numbers), other system tables
// take the lowest free number above 512, user tables the lowest free number above 10,000.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { encodeId, newInternalId, tableNumberOf } from "../engine/ids.ts";
import { RecoveryError, writeDurably } from "./recovery.ts";

const RESERVED_LEGACY_NUMBERS = 512;
const RESERVED_SYSTEM_NUMBERS = 10_000;
const DEFAULT_SYSTEM_TABLES: Record<string, number> = {
  _scheduled_functions: RESERVED_LEGACY_NUMBERS + 27,
  _storage: RESERVED_LEGACY_NUMBERS + 28,
};

interface TablesFile {
  /** crc32 (hex) of JSON.stringify(tables). */
  checksum: string;
  tables: [string, number][];
}

const checksumOf = (tables: [string, number][]) =>
  crc32(JSON.stringify(tables)).toString(16).padStart(8, "0");

export class TableNumbers {
  readonly file: string;
  private readonly numbers = new Map<string, number>();
  private readonly names = new Map<number, string>();
  private readonly keptIds = new Map<string, string[]>();
  /** Numbers not yet in the file (only the fixed system ones, until the first table is registered). */
  private unsaved = false;

  private constructor(dataDir: string) {
    this.file = path.join(dataDir, "tables.json");
  }

  /**
   * Reads <dataDir>/tables.json (RecoveryError when it is damaged) without writing anything; the
   * system tables have their fixed numbers either way.
   */
  static open(dataDir: string): TableNumbers {
    const registry = new TableNumbers(dataDir);
    if (existsSync(registry.file)) registry.load(readFileSync(registry.file, "utf8"));
    for (const [name, n] of Object.entries(DEFAULT_SYSTEM_TABLES))
      registry.unsaved = registry.assign(name, n) || registry.unsaved;
    return registry;
  }

  private load(text: string) {
    let parsed: TablesFile;
    try {
      parsed = JSON.parse(text) as TablesFile;
      if (!Array.isArray(parsed.tables) || parsed.checksum !== checksumOf(parsed.tables))
        throw new Error("checksum mismatch");
      for (const [name, n] of parsed.tables) {
        if (typeof name !== "string" || !Number.isInteger(n) || n < 1)
          throw new Error(`bad entry ${JSON.stringify([name, n])}`);
        this.assign(name, n);
      }
    } catch (error) {
      throw new RecoveryError(
        `${this.file} is damaged (${error instanceof Error ? error.message : String(error)}). It maps the table ` +
          "numbers inside every document id to table names; nothing was changed: restore it from a backup of " +
          "the data directory.",
        this.file,
      );
    }
  }

  private assign(name: string, n: number) {
    const holder = this.names.get(n);
    const current = this.numbers.get(name);
    if (current === n) return false;
    if (current !== undefined || (holder !== undefined && holder !== name))
      throw new Error(
        `table number ${n} of ${name} conflicts with ${holder ?? `number ${current}`}`,
      );
    this.numbers.set(name, n);
    this.names.set(n, name);
    return true;
  }

  private persist() {
    const tables = [...this.numbers].sort((a, b) => a[1] - b[1]);
    const content: TablesFile = { checksum: checksumOf(tables), tables };
    writeDurably(this.file, `${JSON.stringify(content)}\n`);
    this.unsaved = false;
  }

  /** The table's number; a table seen for the first time gets one, durable before this returns. */
  numberOf(table: string): number {
    const known = this.numbers.get(table);
    if (known !== undefined) return known;
    this.register([table]);
    return this.numbers.get(table)!;
  }

  /** Gives each new table of `tables` the lowest free number of its kind (one durable write for all). */
  register(tables: Iterable<string>) {
    let added = this.unsaved;
    for (const table of [...tables].sort()) {
      if (this.numbers.has(table)) continue;
      let n = table.startsWith("_") ? RESERVED_LEGACY_NUMBERS + 1 : RESERVED_SYSTEM_NUMBERS + 1;
      while (this.names.has(n)) n += 1;
      added = this.assign(table, n) || added;
    }
    if (added) this.persist();
  }

  tables(): IterableIterator<string> {
    return this.numbers.keys();
  }

  nameOf(tableNumber: number): string | undefined {
    return this.names.get(tableNumber);
  }

  /** The table of a valid id whose number is known, or null. */
  tableOf(id: string): string | null {
    const n = tableNumberOf(id);
    return n === null ? null : (this.names.get(n) ?? null);
  }

  /** A new random id of `table`, or the next id `keepIds` set aside for it. */
  newId(table: string): string {
    const kept = this.keptIds.get(table);
    if (kept?.length) return kept.shift()!;
    return encodeId(this.numberOf(table), newInternalId());
  }

  /**
   * The next `newId(table)` calls return `ids`, in order (a snapshot import keeps its documents' ids);
   * each must be an id of `table` that no document has. `keepIds(table, [])` drops what is left.
   */
  keepIds(table: string, ids: string[]) {
    for (const id of ids)
      if (this.tableOf(id) !== table) throw new Error(`${id} is not an id of table ${table}`);
    if (ids.length === 0) this.keptIds.delete(table);
    else this.keptIds.set(table, [...ids]);
  }
}
