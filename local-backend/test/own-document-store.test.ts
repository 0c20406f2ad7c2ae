// The engine keeps the committed documents and does every read and write by id itself
// (engine/document-writes.ts), and answers every query stream, page and count (engine/query-streams.ts):
// convex-test's DatabaseFake is made to throw on its documents, its writes, its ids and its query
// streams, and every kind of call (queries, mutations and their nested calls, scheduled jobs, an
// action's runMutation, storage, t.run, convex-test's own t.query, a restart) still runs, with Convex's
// error texts, and subscriptions still re-run exactly when a write touches what they read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import {
  closeTestBackends,
  newClient,
  nextValue,
  startTestBackend,
  tempDataDir,
} from "./helpers.ts";

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
/** Its query streams: nothing may replace them on the instance either (the engine never calls them). */
const STREAMS = ["startQuery", "queryNext", "paginate", "_resolveQuerySource", "_evaluateQuery"];
const FIELDS = [
  "_documents",
  "_writes",
  "_nextDocId",
  "_lastCreationTime",
  "_nextQueryId",
  "_queryResults",
];

const originals = new Map<string, unknown>();
let prototype: Record<string, unknown> | undefined;

/** Makes `db`'s class throw from the methods (the engine's own replace them on its instance) and `db` from the fields. */
function forbidDatabaseFake(db: Record<string, unknown>) {
  // whatever the engine started from (a restart's documents) is not in convex-test's map
  expect(Object.keys(db._documents as object)).toEqual([]);
  prototype ??= Object.getPrototypeOf(db) as Record<string, unknown>;
  const forbidden = (name: string) => () => {
    throw new Error(`DatabaseFake.${name} was used`);
  };
  for (const name of [...METHODS, ...STREAMS]) {
    if (!originals.has(name)) originals.set(name, prototype[name]);
    prototype[name] = forbidden(name);
  }
  for (const name of STREAMS)
    Object.defineProperty(db, name, { configurable: true, value: forbidden(name) });
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

const rootDb = async (backend: Backend) =>
  (await backend.engine.convexTest()).global.components[""].db as unknown as Record<
    string,
    unknown
  >;

let dataDir: string;
let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  dataDir = tempDataDir();
  backend = await startTestBackend({ dataDir });
  forbidDatabaseFake(await rootDb(backend));
  http = new ConvexHttpClient(backend.url);
});
const clients: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
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

  it("answers index ranges, descending order, full-table scans and text search from its own streams", async () => {
    // through the engine's syscalls (a client's call) and convex-test's (its own t.query)
    const viaConvexTest = (ref: any, args: any) => backend.engine.t.query(ref, args);
    for (const value of [1, 2, 3])
      await run((ctx) => ctx.db.insert("counters", { name: "streamed", value }));
    const byName = { first: 3, page: [1, 2, 3], done: true };
    expect(await http.query(anyApi.runtime.byName, { name: "streamed" })).toEqual(byName);
    expect(await viaConvexTest(anyApi.runtime.byName, { name: "streamed" })).toEqual(byName);
    expect(await http.mutation(anyApi.runtime.streamAroundSnapshot, { name: "snap" })).toEqual([
      { value: 1, stale: false },
      { value: 2, stale: false },
    ]);

    await http.mutation(anyApi.items.insert, { list: "scan", ranks: [1, 2, 3] });
    const scan = { paginationOpts: { numItems: 10, cursor: null } };
    const ranks = (page: any) => page.page.map((item: { rank: number }) => item.rank);
    expect(ranks(await http.query(anyApi.items.other, scan))).toEqual([3, 2, 1]);
    expect(ranks(await viaConvexTest(anyApi.items.other, scan))).toEqual([3, 2, 1]);
    const named = ["streamed", "streamed", "streamed"];
    expect(await http.query(anyApi.returns.countersNamed, { prefix: "streamed" })).toEqual(named);
    expect(await run(async (ctx) => (await ctx.db.query("items").collect()).length)).toBe(3);
    // count() (internal in convex/server): convex-test's syscall, answered by the engine's streams
    expect(await run((ctx) => ctx.db.query("items").count())).toBe(3);

    await http.mutation(anyApi.articles.insert, {
      rows: [
        { title: "tap repair", category: "plumbing" },
        { title: "leaking tap", category: "plumbing" },
        { title: "fan repair", category: "electrical" },
      ],
    });
    const search = { text: "tap" };
    // equal scores: the newest first, as on Convex
    const found = ["leaking tap", "tap repair"];
    expect(await http.query(anyApi.articles.search, search)).toEqual(found);
    expect(await viaConvexTest(anyApi.articles.search, search)).toEqual(found);
    const searched = (await http.query(anyApi.articles.searchPage, {
      text: "repair",
      paginationOpts: { numItems: 1, cursor: null },
    })) as { page: string[]; isDone: boolean; continueCursor: string };
    expect(searched.page).toHaveLength(1);
    expect(searched.isDone).toBe(false);
    const rest = (await http.query(anyApi.articles.searchPage, {
      text: "repair",
      paginationOpts: { numItems: 5, cursor: searched.continueCursor },
    })) as { page: string[]; isDone: boolean };
    expect([...searched.page, ...rest.page].sort()).toEqual(["fan repair", "tap repair"]);
    expect(rest.isDone).toBe(true);
  });

  it("pages through a range with cursors and refuses a second .paginate() with Convex's text", async () => {
    await http.mutation(anyApi.items.insert, { list: "paged", ranks: [5, 1, 4, 2, 3] });
    for (const query of [
      (args: any) => http.query(anyApi.items.page, args),
      (args: any) => backend.engine.t.query(anyApi.items.page, args),
    ]) {
      const pages: number[][] = [];
      let cursor: string | null = null;
      for (;;) {
        const page = (await query({ list: "paged", paginationOpts: { numItems: 2, cursor } })) as {
          page: { rank: number }[];
          isDone: boolean;
          continueCursor: string;
        };
        pages.push(page.page.map((item) => item.rank));
        if (page.isDone) break;
        cursor = page.continueCursor;
      }
      expect(pages).toEqual([[1, 2], [3, 4], [5]]);
    }
    const refused =
      /Only a single paginated query \(`\.paginate\(\)`\) is allowed per function execution\. Calling `\.paginate\(\)` more than once in a single Convex function fails at runtime in a deployed backend\. This is a Convex limit: https:\/\/docs\.convex\.dev\/database\/pagination/;
    await expect(http.query(anyApi.runtime.twoPages, {})).rejects.toThrow(refused);
    await expect(backend.engine.t.query(anyApi.runtime.twoPages, {})).rejects.toThrow(refused);
  });

  it("re-runs a subscription after a write into its range, not after a write outside it", async () => {
    const client = newClient(backend.url);
    clients.push(client);
    type Message = { body: string };
    await nextValue<Message[]>(
      client,
      anyApi.messages.list,
      { channel: "watched" },
      (v) => !v.length,
    );
    const runsBefore = backend.subscriptions.runs;
    await client.mutation(anyApi.messages.send, { channel: "elsewhere", body: "unseen" });
    expect(backend.subscriptions.runs).toBe(runsBefore);
    const update = nextValue<Message[]>(
      client,
      anyApi.messages.list,
      { channel: "watched" },
      (v) => v.length === 1,
    );
    await client.mutation(anyApi.messages.send, { channel: "watched", body: "seen" });
    expect((await update).map((m) => m.body)).toEqual(["seen"]);
    expect(backend.subscriptions.runs).toBe(runsBefore + 1);
  });

  it("restores the documents into its own store at a restart", async () => {
    await backend.close();
    backend = await startTestBackend({ dataDir });
    forbidDatabaseFake(await rootDb(backend));
    http = new ConvexHttpClient(backend.url);
    expect(await http.query(anyApi.counters.get, { name: "own" })).toBe(2);
    expect(await http.mutation(anyApi.counters.increment, { name: "own" })).toBe(3);
  });
});
