// The engine keeps the committed documents and does every read and write by id itself
// (engine/document-writes.ts): convex-test's DatabaseFake is made to throw on its documents, its writes
// and its ids, and every kind of call (queries, mutations and their nested calls, scheduled jobs, an
// action's runMutation, storage, t.run, a restart) still runs, with Convex's error texts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend, tempDataDir } from "./helpers.ts";

/* eslint-disable @typescript-eslint/no-explicit-any -- convex-test's DatabaseFake and ctx */

/** DatabaseFake's members the engine must never use: its document map, its writes and its ids. */
const METHODS = [
  "get",
  "insert",
  "patch",
  "replace",
  "delete",
  "_addWrite",
  "_generateId",
  "_validateId",
  "_validate",
  "_iterateDocs",
  "startTransaction",
  "commit",
  "rollbackWrites",
  "stashWrites",
  "restoreWrites",
];
const FIELDS = ["_documents", "_writes", "_nextDocId", "_lastCreationTime"];

const originals = new Map<string, unknown>();
let prototype: Record<string, unknown> | undefined;

/** Makes `db`'s class throw from the methods (the engine's own replace them on its instance) and `db` from the fields. */
function forbidDatabaseFake(db: Record<string, unknown>) {
  // whatever the engine started from (a restart's documents) is not in convex-test's map
  expect(Object.keys(db._documents as object)).toEqual([]);
  prototype ??= Object.getPrototypeOf(db) as Record<string, unknown>;
  for (const name of METHODS) {
    if (!originals.has(name)) originals.set(name, prototype[name]);
    prototype[name] = () => {
      throw new Error(`DatabaseFake.${name} was used`);
    };
  }
  for (const name of FIELDS)
    Object.defineProperty(db, name, {
      configurable: true,
      get() {
        throw new Error(`DatabaseFake.${name} was read`);
      },
      set() {
        throw new Error(`DatabaseFake.${name} was written`);
      },
    });
}

const rootDb = (backend: Backend) =>
  backend.engine.global.components[""].db as unknown as Record<string, unknown>;

let dataDir: string;
let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  dataDir = tempDataDir();
  backend = await startTestBackend({ dataDir });
  forbidDatabaseFake(rootDb(backend));
  http = new ConvexHttpClient(backend.url);
});
afterAll(async () => {
  for (const [name, original] of originals) prototype![name] = original;
  await closeTestBackends();
});

const run = <T = any>(fn: (ctx: any) => Promise<T>) =>
  backend.engine.t.run(fn as never) as Promise<T>;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (done(value) || i > 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("the engine's own document store", () => {
  it("runs queries, mutations and their nested calls without convex-test's documents, writes or ids", async () => {
    expect(await http.mutation(anyApi.counters.increment, { name: "own" })).toBe(1);
    expect(await http.mutation(anyApi.counters.increment, { name: "own" })).toBe(2);
    expect(await http.query(anyApi.counters.get, { name: "own" })).toBe(2);
    expect(await http.mutation(anyApi.runtime.writeCycle, { name: "own-cycle" })).toMatchObject({
      patched: 2,
      replaced: "own-cycle-replaced",
      deleted: true,
    });
    expect(await http.mutation(anyApi.runtime.nestedSeesWrites, { name: "own-nested" })).toEqual({
      seenByQuery: 5,
      staleSnapshot: 0,
      returned: 6,
      seenAfter: 6,
    });
  });

  it("runs a scheduled mutation, and a scheduled action whose runMutation writes", async () => {
    const { counted, jobId } = (await http.mutation(anyApi.runtime.nestedAndScheduled, {
      name: "own-job",
    })) as { counted: number; jobId: string };
    expect(counted).toBe(1);
    const job = await until(
      () => http.query(anyApi.jobs.job, { id: jobId }) as Promise<any>,
      (job) => job?.state.kind === "success",
    );
    expect(job.state).toEqual({ kind: "success" });
    expect(await http.query(anyApi.counters.get, { name: "own-job" })).toBe(2);

    const actionJob = (await http.mutation(anyApi.jobs.schedule, {
      fn: "okAction",
      delayMs: 0,
      note: "own-action",
    })) as string;
    const done = await until(
      () => http.query(anyApi.jobs.job, { id: actionJob }) as Promise<any>,
      (job) => job?.state.kind === "success",
    );
    expect(done.state).toEqual({ kind: "success" });
    expect(await http.query(anyApi.jobs.notes, {})).toContain("own-action");
  });

  it("stores, reads and deletes files (an action's store, an upload, a mutation's delete)", async () => {
    const stored = (await http.action(anyApi.files.storeText, { text: "hello" })) as string;
    expect(await http.query(anyApi.files.metadata, { storageId: stored })).toMatchObject({
      size: 5,
    });
    const uploadUrl = (await http.mutation(anyApi.files.generateUploadUrl, {})) as string;
    const upload = await fetch(uploadUrl, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "uploaded",
    });
    const { storageId } = (await upload.json()) as { storageId: string };
    expect(await http.query(anyApi.files.metadata, { storageId })).toMatchObject({
      size: 8,
      contentType: "text/plain",
    });
    const url = (await http.query(anyApi.files.url, { storageId })) as string;
    expect(await (await fetch(url)).text()).toBe("uploaded");
    await http.mutation(anyApi.files.remove, { storageId });
    expect(await http.query(anyApi.files.url, { storageId })).toBeNull();
  });

  it("answers a bad write with Convex's texts", async () => {
    const id = await run((ctx) => ctx.db.insert("counters", { name: "gone", value: 1 }));
    await run((ctx) => ctx.db.delete(id));
    const texts = await run(async (ctx) => {
      const live = await ctx.db.insert("counters", { name: "live", value: 1 });
      const doc = await ctx.db.get(live);
      const attempts: Record<string, () => Promise<unknown>> = {
        patch: () => ctx.db.patch(id, { value: 2 }),
        replace: () => ctx.db.replace(id, { name: "gone", value: 2 }),
        delete: () => ctx.db.delete(id),
        wrongId: () => ctx.db.patch(live, { _id: id }),
        wrongCreationTime: () => ctx.db.replace(live, { ...doc, _creationTime: 1 }),
        schema: () => ctx.db.patch(live, { value: "two" }),
        undecodable: () => ctx.db.get("counters", "not-an-id"),
        otherTable: () => ctx.db.get("jobLog", live),
      };
      const out: Record<string, string> = {};
      for (const [key, attempt] of Object.entries(attempts))
        out[key] = await attempt().then(
          () => "ok",
          (e: Error) => e.message,
        );
      return out;
    });
    expect(texts.patch).toMatch(`Patch on non-existent document with ID "${id}"`);
    expect(texts.replace).toMatch(`Replace on non-existent document with ID "${id}"`);
    expect(texts.delete).toMatch("Delete on non-existent doc");
    expect(texts.wrongId).toMatch(/Provided `_id` field value ".*" does not match the document ID/);
    expect(texts.wrongCreationTime).toMatch(
      /Provided `_creationTime` field value 1 does not match the document's creation time/,
    );
    expect(texts.schema).toMatch(
      'Failed to insert or update a document in table "counters" because it does not match the schema',
    );
    expect(texts.undecodable).toMatch("Invalid argument `id`: Unable to decode ID");
    expect(texts.otherTable).toMatch('expected to be an Id<"jobLog">, got Id<"counters"> instead');
  });

  it("restores the documents into its own store at a restart", async () => {
    await backend.close();
    backend = await startTestBackend({ dataDir });
    forbidDatabaseFake(rootDb(backend));
    http = new ConvexHttpClient(backend.url);
    expect(await http.query(anyApi.counters.get, { name: "own" })).toBe(2);
    expect(await http.mutation(anyApi.counters.increment, { name: "own" })).toBe(3);
  });
});
