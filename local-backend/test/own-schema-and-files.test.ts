// The schema (indexes, text and vector search indexes, document validators) is the engine's, read from
// the schema module's `export()` (engine/schema.ts), and so are the stored files (engine/files.ts):
// convex-test's DatabaseFake is made to throw on its compiled schema (`_schema`) and its files
// (`_storage`, storeFile, getFile), and schema checks, index ranges, search, a reload with a new index,
// every way of storing, reading and deleting a file, and a restart still work.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi, defineSchema, defineTable } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { v } from "convex/values";
import { nativeImport } from "../engine/modules.ts";
import { Schema } from "../engine/schema.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend, tempDataDir } from "./helpers.ts";

/* eslint-disable @typescript-eslint/no-explicit-any -- convex-test's DatabaseFake and ctx */

const METHODS = ["storeFile", "getFile", "vectorSearch"];
const FIELDS = ["_schema", "_storage"];

const originals = new Map<string, unknown>();
let prototype: Record<string, unknown> | undefined;

async function forbidSchemaAndFiles(backend: Backend) {
  const { global } = await backend.engine.convexTest();
  const db = global.components[""].db as unknown as Record<string, unknown>;
  // convex-test was given no schema to compile
  expect(db._schema).toBeNull();
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

let dataDir: string;
let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  dataDir = tempDataDir();
  backend = await startTestBackend({ dataDir });
  await forbidSchemaAndFiles(backend);
  http = new ConvexHttpClient(backend.url);
});
afterAll(async () => {
  for (const [name, original] of originals) prototype![name] = original;
  await closeTestBackends();
});

const run = <T = any>(fn: (ctx: any) => Promise<T>) =>
  backend.engine.t.run(fn as never) as Promise<T>;
const inlineAction = <T = any>(fn: (ctx: any) => Promise<T>) =>
  backend.engine.t.action(fn as never) as Promise<T>;

describe("the engine's own schema", () => {
  it("checks documents, answers index ranges, text and vector search from it", async () => {
    await expect(run((ctx) => ctx.db.insert("counters", { name: 1, value: 1 }))).rejects.toThrow(
      'Failed to insert or update a document in table "counters" because it does not match the schema',
    );
    await http.mutation(anyApi.items.insert, { list: "schema", ranks: [3, 1, 2] });
    const page = (await http.query(anyApi.items.page, {
      list: "schema",
      paginationOpts: { numItems: 10, cursor: null },
    })) as { page: { rank: number }[] };
    expect(page.page.map((item) => item.rank)).toEqual([1, 2, 3]);
    await http.mutation(anyApi.articles.insert, {
      rows: [{ title: "geyser repair", category: "plumbing" }],
    });
    expect(await http.query(anyApi.articles.search, { text: "geyser" })).toEqual(["geyser repair"]);
    await http.mutation(anyApi.vectors.insert, { label: "a", kind: "k", vector: [1, 0, 0] });
    await http.mutation(anyApi.vectors.insert, { label: "b", kind: "k", vector: [0, 1, 0] });
    const found = (await http.action(anyApi.vectors.search, {
      vector: [0, 1, 0],
      limit: 1,
    })) as { _id: string; _score: number }[];
    expect(found).toHaveLength(1);
    expect(found[0]._score).toBeCloseTo(1);
  });

  it("takes a new schema's indexes at a reload", async () => {
    const byValue = () =>
      run(async (ctx) =>
        (
          await ctx.db
            .query("counters")
            .withIndex("by_value", (q: any) => q.gt("value", 10))
            .collect()
        ).map((doc: { name: string }) => doc.name),
      );
    await run((ctx) => ctx.db.insert("counters", { name: "big", value: 11 }));
    await expect(byValue()).rejects.toThrow();
    const fixture = (await backend.engine.moduleExports("schema"))!.default as {
      tables: Record<string, any>;
    };
    const withIndex = defineSchema({
      ...fixture.tables,
      counters: defineTable({ name: v.string(), value: v.number() })
        .index("by_name", ["name"])
        .index("by_value", ["value"]),
    });
    await backend.reload((file) =>
      /[/\\]schema\.ts$/.test(file) ? Promise.resolve({ default: withIndex }) : nativeImport(file),
    );
    expect(await byValue()).toEqual(["big"]);
  });

  it("refuses a schema whose names are not identifiers, as Convex does", () => {
    expect(() => Schema.fromModule(defineSchema({ "bad-table": defineTable({}) }))).toThrow(
      'Table names must be valid identifiers, got "bad-table"',
    );
    expect(() =>
      Schema.fromModule(defineSchema({ t: defineTable({ "bad field": v.string() }) })),
    ).toThrow('Field names must be valid identifiers, got "bad field"');
    expect(Schema.fromModule(undefined)).toBeNull();
  });
});

describe("the engine's own files", () => {
  let stored: string;

  it("stores, reads and deletes files through an action, an upload, t.run and a mutation", async () => {
    stored = (await http.action(anyApi.files.storeText, {
      text: "kept",
      type: "text/plain",
    })) as string;
    const url = (await http.query(anyApi.files.url, { storageId: stored })) as string;
    expect(await (await fetch(url)).text()).toBe("kept");

    // an action's ctx.storage.get and ctx.storage.delete (convex-test's runs reach the engine's files)
    expect(await inlineAction(async (ctx) => (await ctx.storage.get(stored))?.text())).toBe("kept");
    const doomed = (await http.action(anyApi.files.storeText, { text: "doomed" })) as string;
    await inlineAction((ctx) => ctx.storage.delete(doomed));
    expect(await http.query(anyApi.files.url, { storageId: doomed })).toBeNull();
    expect(backend.engine.database.file(doomed)).toBeUndefined();
    expect(await inlineAction((ctx) => ctx.storage.get(doomed))).toBeNull();

    // t.run's ctx.storage stores in t.run's own transaction
    const inRun = await run(async (ctx) => {
      const id = await ctx.storage.store(new Blob(["in a transaction"]));
      return { id, doc: await ctx.db.system.get(id) };
    });
    expect(inRun.doc).toMatchObject({ size: 16 });
    expect(await backend.engine.database.file(inRun.id)!.text()).toBe("in a transaction");

    const uploadUrl = (await http.mutation(anyApi.files.generateUploadUrl, {})) as string;
    const upload = await fetch(uploadUrl, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: "png bytes",
    });
    const { storageId } = (await upload.json()) as { storageId: string };
    expect(await http.query(anyApi.files.metadata, { storageId })).toMatchObject({
      size: 9,
      contentType: "image/png",
      sha256: createHash("sha256").update("png bytes").digest("hex"),
    });
    await http.mutation(anyApi.files.remove, { storageId });
    expect(await http.query(anyApi.files.url, { storageId })).toBeNull();
    expect(backend.engine.database.file(storageId)).toBeUndefined();
  });

  it("refuses an id of another table in ctx.storage.get with Convex's text", async () => {
    const counter = await run((ctx) => ctx.db.insert("counters", { name: "not a file", value: 0 }));
    await expect(inlineAction((ctx) => ctx.storage.get(counter))).rejects.toThrow(
      'expected to be an Id<"_storage">, got Id<"counters"> instead',
    );
  });

  it("restores the files into its own store at a restart", async () => {
    await backend.close();
    backend = await startTestBackend({ dataDir });
    await forbidSchemaAndFiles(backend);
    http = new ConvexHttpClient(backend.url);
    const url = (await http.query(anyApi.files.url, { storageId: stored })) as string;
    expect(await (await fetch(url)).text()).toBe("kept");
    expect(await http.query(anyApi.files.metadata, { storageId: stored })).toMatchObject({
      size: 4,
      contentType: "text/plain",
    });
  });
});
