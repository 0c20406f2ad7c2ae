// A data directory written before ids took Convex's format (convex-test's "<digits><table>" ids, both
// the counter and the random-digits kind) is migrated on start: documents, references, stored files,
// scheduled jobs' arguments and kept mutation results all move to the new ids, and nothing on disk that
// recovery reads still names an old one.
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, describe, expect, it, vi } from "vitest";
import { encodeSnapshot } from "../durability/log-format.ts";
import { legacyIdTable } from "../durability/migrate-ids.ts";
import type { Doc } from "../engine/document-store.ts";
import { decodeId } from "../engine/ids.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, legacyLogLine, startTestBackend, tempDataDir } from "./helpers.ts";

afterAll(closeTestBackends);

/** convex-test's ids: a counter padded to 32 characters, or (for a while) 39 random digits. */
const counterId = (n: number, table: string) => `${n}`.padStart(32 - table.length, "0") + table;
const randomDigitsId = (digits: string, table: string) => `${digits.padStart(39, "0")}${table}`;
const LEGACY = /[0-9]{20,}(messages|files|_storage|_scheduled_functions)/;

const old = {
  first: counterId(10_000, "messages"),
  second: randomDigitsId("283746019283746501928374650192837465019", "messages"),
  third: counterId(10_006, "messages"),
  storage: counterId(10_001, "_storage"),
  file: counterId(10_002, "files"),
  job: counterId(10_003, "_scheduled_functions"),
  otherJob: counterId(10_004, "_scheduled_functions"),
  deleted: counterId(10_005, "messages"),
  counter: counterId(10_007, "counters"),
};

/** What the backend wrote before: a snapshot, a log record after it and a stored file. */
function writeLegacyDataDir(): string {
  const dir = tempDataDir();
  const now = Date.now();
  const ts = BigInt(now) * 1_000_000n;
  const doc = (id: string, creation: number, fields: Record<string, unknown>) =>
    ({ _id: id, _creationTime: now - 10_000 + creation, ...fields }) as Doc;
  const docs = [
    doc(old.first, 1, { channel: "old", body: "first" }),
    // A string field holding an id, and one holding the id of a document deleted since.
    doc(old.second, 2, { channel: "old", body: "second", author: old.first }),
    doc(old.storage, 3, { sha256: "x", size: 12 }),
    doc(old.file, 4, { storageId: old.storage, name: old.deleted }),
    doc(old.job, 5, {
      name: "messages:move",
      args: [{ id: old.first, channel: "moved" }],
      scheduledTime: now - 5_000,
      state: { kind: "success" },
    }),
    // Ids inside text: JSON the app stored, a refresh token's "<id>|<id>".
    doc(old.counter, 7, {
      name: `${JSON.stringify([old.first])} ${old.first}|${old.second}`,
      value: 1,
    }),
    doc(old.otherJob, 6, {
      name: "counters:increment",
      args: [{ byId: { [old.second]: [old.first, "not an id"] } }],
      scheduledTime: now - 5_000,
      state: { kind: "success" },
    }),
  ];
  writeFileSync(
    path.join(dir, "snapshot.json"),
    encodeSnapshot({
      ts,
      nextDocId: 10_006,
      lastCreationTime: now,
      docs,
      files: new Map([[old.storage, "image/png"]]),
      requests: [["session-1", 0, ts.toString(), old.first]],
    }),
  );
  const third = doc(old.third, 7, { channel: "old", body: "third", author: old.second });
  writeFileSync(
    path.join(dir, "log.jsonl"),
    legacyLogLine({
      ts: (ts + 1n).toString(),
      n: 10_007,
      c: now,
      w: [[old.third, third]],
      r: ["session-1", 1, { sent: old.third }],
    }),
  );
  mkdirSync(path.join(dir, "files"));
  writeFileSync(path.join(dir, "files", old.storage), "legacy bytes");
  writeFileSync(path.join(dir, "storage-secret"), randomBytes(32).toString("hex"));
  return dir;
}

async function start(dataDir: string): Promise<{ backend: Backend; warnings: string[] }> {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    const backend = await startTestBackend({ dataDir });
    return { backend, warnings: warn.mock.calls.map((args) => args.join(" ")) };
  } finally {
    warn.mockRestore();
  }
}

function docsByBody(backend: Backend): Map<string, Doc> {
  const out = new Map<string, Doc>();
  for (const doc of backend.engine.database.documents())
    out.set((doc.body as string | undefined) ?? (doc.name as string) ?? String(doc.sha256), doc);
  return out;
}

describe("migrating convex-test ids", () => {
  it("recognises only the shapes convex-test wrote", () => {
    expect(legacyIdTable(old.first)).toBe("messages");
    expect(legacyIdTable(old.second)).toBe("messages");
    expect(legacyIdTable(counterId(123_456, "_storage"))).toBe("_storage");
    for (const text of ["10000messages", "2users", "0000000000000000000000009999users", "users1"])
      expect(legacyIdTable(text)).toBeNull();
  });

  it("moves every id, reference, file and kept result to Convex ids, and leaves no old id on disk", async () => {
    const dataDir = writeLegacyDataDir();
    const untouched = tempDataDir();
    cpSync(dataDir, untouched, { recursive: true });

    const { backend, warnings } = await start(dataDir);
    let ids: Map<string, Doc>;
    try {
      expect(warnings).toContainEqual(
        expect.stringMatching(
          /ids migrated to Convex's format: 8 documents, 12 references to them, 1 stored files/,
        ),
      );
      for (const doc of backend.engine.database.documents())
        expect(decodeId(doc._id)).not.toHaveProperty("error");
      ids = docsByBody(backend);
      const [first, second, third] = ["first", "second", "third"].map((b) => ids.get(b)!);
      expect(second.author).toBe(first._id);
      expect(third.author).toBe(second._id);
      const counter = [...backend.engine.database.documents()].find((d) => d.value === 1)!;
      expect(counter.name).toBe(`["${first._id}"] ${first._id}|${second._id}`);
      const file = [...backend.engine.database.documents()].find((d) => d.storageId)!;
      const storageId = file.storageId as string;
      expect(backend.engine.database.tableOf(storageId)).toBe("_storage");
      // The deleted document's id still reads as an id of its table.
      expect(backend.engine.database.tableOf(file.name as string)).toBe("messages");
      const jobs = [...backend.engine.database.documents()].filter((d) => d.name?.includes(":"));
      expect(jobs.find((j) => j.name === "messages:move")!.args).toEqual([
        { id: first._id, channel: "moved" },
      ]);
      expect(jobs.find((j) => j.name === "counters:increment")!.args).toEqual([
        { byId: { [second._id]: [first._id, "not an id"] } },
      ]);
      expect(backend.requests.records().map((r) => r[3])).toEqual([first._id, { sent: third._id }]);

      const http = new ConvexHttpClient(backend.url);
      const url: string = await http.query(anyApi.files.url, { storageId });
      const res = await fetch(url);
      expect([res.status, res.headers.get("content-type"), await res.text()]).toEqual([
        200,
        "image/png",
        "legacy bytes",
      ]);
      await http.mutation(anyApi.messages.move, { id: first._id, channel: "new" });
      expect(await http.query(anyApi.messages.list, { channel: "old" })).toHaveLength(2);
    } finally {
      await backend.close();
    }

    for (const name of ["snapshot.json", "snapshot.prev.json", "log.jsonl", "log.prev.jsonl"])
      expect(readFileSync(path.join(dataDir, name), "utf8")).not.toMatch(LEGACY);
    expect(readdirSync(path.join(dataDir, "files"))).toEqual([
      [...ids.values()].find((d) => d.sha256)!._id,
    ]);

    // Started again: nothing left to migrate, the same ids.
    const again = await start(dataDir);
    try {
      expect(again.warnings.join("\n")).not.toMatch(/migrated/);
      expect(docsByBody(again.backend).get("second")!._id).toBe(ids.get("second")!._id);
    } finally {
      await again.backend.close();
    }

    // A migration that stopped after renaming the files runs again to the same ids.
    const storageId = [...ids.values()].find((d) => d.sha256)!._id;
    renameSync(
      path.join(untouched, "files", old.storage),
      path.join(untouched, "files", storageId),
    );
    const rerun = await start(untouched);
    try {
      expect(rerun.warnings).toContainEqual(expect.stringMatching(/0 stored files/));
      const rerunIds = docsByBody(rerun.backend);
      for (const [body, doc] of ids) expect(rerunIds.get(body)?._id).toBe(doc._id);
      expect(rerun.backend.engine.database.file(storageId)).toBeDefined();
    } finally {
      await rerun.backend.close();
    }
  });
});
