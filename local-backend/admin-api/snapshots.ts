// `npx convex export`: a snapshot of every table (and, asked for, every stored file) as a ZIP laid out
// as Convex's: <table>/documents.jsonl, _storage/documents.jsonl + _storage/<id>, README.md.
// The latest export is kept in <dataDir>/exports/ until the next one replaces it.
import { createReadStream, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { convexToJson, type Value } from "convex/values";
import { sendJson } from "../http-util.ts";
import { writeZip, type ZipEntry } from "./zip.ts";

export interface SnapshotDeps {
  dataDir: string;
  currentTs(): bigint;
  documents(): Iterable<{ table: string; doc: Record<string, unknown> }>;
  file(storageId: string): Blob | undefined;
}

interface ExportState {
  _id: string;
  _creationTime: number;
  requestor: "snapshotExport";
  state: "completed";
  start_ts: bigint;
  complete_ts: bigint;
  zip_object_key: string;
  format: { format: "zip"; include_storage: boolean };
}

const README = `# Convex snapshot export (GharSewa local backend)

Each table's documents are in <table>/documents.jsonl, one JSON document per line, values in Convex's
JSON encoding (int64 as {"$integer": base64}, bytes as {"$bytes": base64}). With --include-file-storage,
_storage/documents.jsonl lists the stored files and _storage/<id> holds each file's bytes.
`;

export class SnapshotService {
  private latest: ExportState | null = null;
  private readonly dir: string;

  constructor(private readonly deps: SnapshotDeps) {
    this.dir = path.join(deps.dataDir, "exports");
    // Exports are served once and are not part of the deployment's state: start clean.
    rmSync(this.dir, { recursive: true, force: true });
  }

  latestExport(): Value {
    return this.latest as unknown as Value;
  }

  /** Builds the archive at the current commit (the engine is single-threaded: one consistent view). */
  async requestExport(includeStorage: boolean) {
    const ts = this.deps.currentTs();
    const tables = new Map<string, string[]>();
    const files: ZipEntry[] = [];
    for (const { table, doc } of this.deps.documents()) {
      if (table.startsWith("_") && table !== "_storage") continue;
      if (table === "_storage" && !includeStorage) continue;
      const lines = tables.get(table) ?? [];
      lines.push(JSON.stringify(convexToJson(doc as Value)));
      tables.set(table, lines);
      if (table === "_storage") {
        const blob = this.deps.file(doc._id as string);
        if (blob)
          files.push({
            name: `_storage/${String(doc._id)}`,
            data: new Uint8Array(await blob.arrayBuffer()),
          });
      }
    }
    const entries: ZipEntry[] = [{ name: "README.md", data: Buffer.from(README) }];
    for (const [table, lines] of [...tables].sort(([a], [b]) => a.localeCompare(b)))
      entries.push({
        name: `${table}/documents.jsonl`,
        data: Buffer.from(`${lines.join("\n")}\n`),
      });
    entries.push(...files);
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    const key = `snapshot_${ts}.zip`;
    writeFileSync(path.join(this.dir, key), writeZip(entries), { mode: 0o600 });
    this.latest = {
      _id: key,
      _creationTime: Date.now(),
      requestor: "snapshotExport",
      state: "completed",
      start_ts: ts,
      complete_ts: ts,
      zip_object_key: key,
      format: { format: "zip", include_storage: includeStorage },
    };
  }

  /** GET /api/export/zip/<ts>: the latest export, if `ts` names it. */
  download(res: ServerResponse, ts: string) {
    const key = `snapshot_${ts}.zip`;
    const file = path.join(this.dir, key);
    if (!/^\d{1,20}$/.test(ts) || this.latest?.zip_object_key !== key || !existsSync(file))
      return sendJson(res, 404, {
        code: "ExportNotFound",
        message: `No export at timestamp ${ts.slice(0, 24)}`,
      });
    res.writeHead(200, {
      "Content-Type": "application/zip",
      "Content-Length": String(statSync(file).size),
      "Content-Disposition": `attachment; filename="${key}"`,
    });
    createReadStream(file).pipe(res);
  }
}
