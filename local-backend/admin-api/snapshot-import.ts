// `npx convex import`: the upload (start_upload, upload_part, finish_upload), the summary the CLI
// confirms, and perform_import, which writes the documents through ordinary transactions (logged,
// reactive, schema-checked). Documents keep their `_id` when it is an id of the same table here
// (an export of this backend, or of one with the same schema); `_creationTime` is the import's.
import { randomBytes } from "node:crypto";
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import { z } from "zod";
import type { TableNumbers } from "../durability/table-numbers.ts";
import type { Engine } from "../engine/engine.ts";
import { readZip, ZipError } from "./zip.ts";

export class ImportError extends Error {}

const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
const MAX_PART_BYTES = 32 * 1024 * 1024;
const MAX_UPLOADS = 4;
const MAX_RECORDS = 20;
/** Documents per transaction (Convex allows 16,000 writes in one). */
const BATCH = 4_000;
const TABLE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const finishRequest = z.object({
  import: z.object({
    tableName: z.string().optional(),
    mode: z.enum(["requireEmpty", "append", "replace", "replaceAll"]),
    format: z.enum(["csv", "jsonLines", "jsonArray", "zip"]),
  }),
  uploadToken: z.string(),
  partTokens: z.array(z.string()).max(10_000),
});
const importReference = z.object({ importId: z.string() });

type Mode = z.infer<typeof finishRequest>["import"]["mode"];

interface Plan {
  mode: Mode;
  /** Table → its documents as stored in the file (with `_id` if it had one). */
  tables: Map<string, Record<string, Value>[]>;
  /** `_storage` id in the file → the file's bytes and type. */
  files: Map<string, { bytes: Buffer; contentType: string | null }>;
}

interface ImportRecord {
  _id: string;
  _creationTime: number;
  state: Record<string, Value>;
  checkpoint_messages: string[];
}

export interface ImportDeps {
  engine(): Engine;
  tables(): TableNumbers;
}

export class ImportService {
  readonly maxPartBytes = MAX_PART_BYTES;
  private uploads = new Map<string, { parts: Map<string, Buffer>; bytes: number }>();
  private records: ImportRecord[] = [];
  private plans = new Map<string, Plan>();

  constructor(private readonly deps: ImportDeps) {}

  /** Newest first, as `_system/cli/queryImport:list`. */
  list(): Value[] {
    return this.records as unknown as Value[];
  }

  startUpload() {
    if (this.uploads.size >= MAX_UPLOADS) this.uploads.delete(this.uploads.keys().next().value!);
    const uploadToken = randomBytes(16).toString("hex");
    this.uploads.set(uploadToken, { parts: new Map(), bytes: 0 });
    return { uploadToken };
  }

  uploadPart(uploadToken: string, partNumber: string, body: Buffer): string {
    const upload = this.uploads.get(uploadToken);
    if (!upload) throw new ImportError("Unknown upload token");
    if (!/^[1-9]\d{0,4}$/.test(partNumber)) throw new ImportError("Bad partNumber");
    const growth = body.length - (upload.parts.get(partNumber)?.length ?? 0);
    // One budget for all uploads under way, so parallel uploads cannot multiply it.
    const held = [...this.uploads.values()].reduce((sum, u) => sum + u.bytes, 0);
    if (held + growth > MAX_UPLOAD_BYTES)
      throw new ImportError(`Imports are limited to ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB here`);
    upload.bytes += growth;
    upload.parts.set(partNumber, body);
    return partNumber;
  }

  /** Parses the upload and asks the CLI to confirm what it will write. */
  finishUpload(body: unknown): { importId: string } {
    const request = finishRequest.safeParse(body);
    if (!request.success) throw new ImportError("Expected {import, uploadToken, partTokens}");
    const { import: options, uploadToken, partTokens } = request.data;
    const upload = this.uploads.get(uploadToken);
    if (!upload) throw new ImportError("Unknown upload token");
    this.uploads.delete(uploadToken);
    const parts = partTokens.map((token) => upload.parts.get(token));
    if (parts.some((p) => p === undefined)) throw new ImportError("A part token names no part");
    const file = Buffer.concat(parts as Buffer[]);
    const importId = randomBytes(16).toString("hex");
    const record: ImportRecord = {
      _id: importId,
      _creationTime: Date.now(),
      state: { state: "uploaded" },
      checkpoint_messages: [],
    };
    this.records.unshift(record);
    this.records.splice(MAX_RECORDS);
    try {
      const plan = parse(file, options);
      this.plans.set(importId, plan);
      this.checkMode(plan);
      record.state = {
        state: "waiting_for_confirmation",
        message_to_confirm: summary(plan, this.counts()),
        require_manual_confirmation: plan.mode === "replace" || plan.mode === "replaceAll",
      };
    } catch (error) {
      this.plans.delete(importId);
      record.state = { state: "failed", error_message: messageOf(error) };
    }
    return { importId };
  }

  /** Writes the confirmed import, in transactions of up to 4,000 documents. */
  async performImport(body: unknown) {
    const { importId } = parseWith(importReference, body);
    const record = this.records.find((r) => r._id === importId);
    const plan = this.plans.get(importId);
    if (!record || !plan || record.state.state !== "waiting_for_confirmation")
      throw new ImportError("No import waiting for confirmation under this id");
    this.plans.delete(importId);
    record.state = { state: "in_progress", progress_message: "Importing", checkpoint_messages: [] };
    try {
      this.checkMode(plan);
      const written = await this.write(plan, record);
      record.state = { state: "completed", num_rows_written: BigInt(written) };
    } catch (error) {
      record.state = { state: "failed", error_message: messageOf(error) };
    }
    return {};
  }

  cancelImport(body: unknown) {
    const { importId } = parseWith(importReference, body);
    const record = this.records.find((r) => r._id === importId);
    if (record && this.plans.delete(importId))
      record.state = { state: "failed", error_message: "Import canceled" };
  }

  private counts(): Map<string, number> {
    const engine = this.deps.engine();
    const counts = new Map<string, number>();
    for (const doc of engine.database.documents()) {
      const table = engine.database.tableOf(doc._id);
      counts.set(table, (counts.get(table) ?? 0) + 1);
    }
    return counts;
  }

  private checkMode(plan: Plan) {
    if (plan.mode !== "requireEmpty") return;
    const counts = this.counts();
    const full = [...plan.tables.keys()].filter((t) => (counts.get(t) ?? 0) > 0);
    if (full.length > 0)
      throw new ImportError(
        `Table${full.length > 1 ? "s" : ""} ${full.map((t) => `"${t}"`).join(", ")} already ${full.length > 1 ? "have" : "has"} documents. Use --append, --replace or --replace-all.`,
      );
  }

  private async write(plan: Plan, record: ImportRecord): Promise<number> {
    const engine = this.deps.engine();
    const tables = this.deps.tables();
    const doomed =
      plan.mode === "replaceAll"
        ? [...engine.database.documents()].filter(
            (d) => !engine.database.tableOf(d._id).startsWith("_"),
          )
        : plan.mode === "replace"
          ? [...engine.database.documents()].filter((d) =>
              plan.tables.has(engine.database.tableOf(d._id)),
            )
          : [];
    for (let i = 0; i < doomed.length; i += BATCH) {
      const ids = doomed.slice(i, i + BATCH).map((d) => d._id);
      await engine.transact((store) => {
        for (const id of ids) store.delete(undefined, id);
      });
    }
    let written = 0;
    let renumbered = 0;
    // Files first: documents may hold their storage ids.
    const order = [...plan.tables.keys()].sort(
      (a, b) => Number(b === "_storage") - Number(a === "_storage"),
    );
    for (const table of order) {
      const docs = plan.tables.get(table)!;
      for (let i = 0; i < docs.length; i += BATCH) {
        const batch = docs.slice(i, i + BATCH);
        // Ids kept only where they are this table's and free here; the rest get new ones.
        const keep = batch
          .map((d) => d._id)
          .filter(
            (id): id is string =>
              typeof id === "string" &&
              tables.tableOf(id) === table &&
              engine.database.get(id) === null,
          );
        renumbered += batch.length - keep.length;
        const kept = new Set(keep);
        const ordered = [
          ...batch.filter((d) => kept.has(d._id as string)),
          ...batch.filter((d) => !kept.has(d._id as string)),
        ];
        tables.keepIds(table, keep);
        try {
          await engine.transact(async (store) => {
            for (const doc of ordered) {
              if (table === "_storage") {
                const file = plan.files.get(doc._id as string);
                if (!file) continue;
                await engine.storeBlob(
                  new Blob(
                    [new Uint8Array(file.bytes)],
                    file.contentType ? { type: file.contentType } : {},
                  ),
                );
              } else {
                const { _id, _creationTime, ...fields } = doc;
                store.insert(table, fields);
              }
            }
          });
        } finally {
          tables.keepIds(table, []);
        }
        written += batch.length;
      }
      record.checkpoint_messages.push(`Imported "${table}" (${docs.length} documents)`);
    }
    if (renumbered > 0)
      record.checkpoint_messages.push(
        `${renumbered} documents got new ids (theirs belong to another deployment's tables); references to them are not rewritten.`,
      );
    return written;
  }
}

function parse(file: Buffer, options: z.infer<typeof finishRequest>["import"]): Plan {
  const plan: Plan = { mode: options.mode, tables: new Map(), files: new Map() };
  if (options.format === "csv")
    throw new ImportError("CSV imports are not supported by the local backend; use JSONL or JSON.");
  if (options.format !== "zip") {
    const table = options.tableName ?? "";
    if (!TABLE.test(table)) throw new ImportError(`Invalid table name "${table.slice(0, 64)}"`);
    plan.tables.set(
      table,
      options.format === "jsonLines" ? jsonLines(file.toString("utf8")) : jsonArray(file),
    );
    return plan;
  }
  let entries: Map<string, Buffer>;
  try {
    entries = readZip(file, { maxEntries: 100_000, maxBytes: 1024 * 1024 * 1024 });
  } catch (error) {
    if (error instanceof ZipError) throw new ImportError(error.message);
    throw error;
  }
  for (const [name, data] of entries) {
    const match = /^([^/]+)\/documents\.jsonl$/.exec(name);
    if (!match) continue;
    const table = match[1];
    if (table !== "_storage" && !TABLE.test(table)) continue; // _tables, _components, …: not data
    plan.tables.set(table, jsonLines(data.toString("utf8")));
  }
  for (const doc of plan.tables.get("_storage") ?? []) {
    const id = doc._id;
    const bytes = typeof id === "string" ? entries.get(`_storage/${id}`) : undefined;
    if (typeof id === "string" && bytes)
      plan.files.set(id, {
        bytes,
        contentType: typeof doc.contentType === "string" ? doc.contentType : null,
      });
  }
  return plan;
}

function jsonLines(text: string): Record<string, Value>[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => document(parseJson(line, `line ${i + 1}`), `line ${i + 1}`));
}

function jsonArray(file: Buffer): Record<string, Value>[] {
  const value = parseJson(file.toString("utf8"), "the file");
  if (!Array.isArray(value)) throw new ImportError("A JSON import must be an array of objects");
  return value.map((v, i) => document(v, `element ${i}`));
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ImportError(`Invalid JSON at ${where}`);
  }
}

function document(json: unknown, where: string): Record<string, Value> {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new ImportError(`Expected a JSON object at ${where}`);
  try {
    return jsonToConvex(json as JSONValue) as Record<string, Value>;
  } catch (error) {
    throw new ImportError(`${where}: ${messageOf(error)}`);
  }
}

function summary(plan: Plan, counts: Map<string, number>): string {
  const rows = [...plan.tables].map(([table, docs]) => {
    const deleted =
      plan.mode === "replaceAll" || plan.mode === "replace" ? (counts.get(table) ?? 0) : 0;
    return `${table} | ${deleted} | ${docs.length}`;
  });
  if (plan.mode === "replaceAll")
    for (const [table, n] of counts)
      if (!table.startsWith("_") && !plan.tables.has(table)) rows.push(`${table} | ${n} | 0`);
  return `Import change summary:\ntable | delete | create\n${rows.join("\n")}`;
}

function parseWith<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ImportError("Malformed request");
  return parsed.data;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
