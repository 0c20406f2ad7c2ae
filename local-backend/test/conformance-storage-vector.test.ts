// ctx.storage.getMetadata and ctx.vectorSearch as Convex documents and implements them
// (crates/isolate storage_get_metadata; crates/vector qdrant_index.rs).
import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url, { logger: false });
});
afterAll(closeTestBackends);

describe("ctx.storage.getMetadata", () => {
  it("returns storageId, the hex sha256, size and contentType, in queries and actions", async () => {
    const storageId = (await http.action(anyApi.files.storeText, {
      text: "नमस्ते GharSewa",
      type: "text/plain",
    })) as string;
    const bytes = Buffer.from("नमस्ते GharSewa");
    const expected = {
      storageId,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: bytes.length,
      contentType: "text/plain",
    };
    expect(await http.query(anyApi.files.metadata, { storageId })).toEqual(expected);
    expect(await http.action(anyApi.files.metadataInAction, { storageId })).toEqual(expected);
  });

  it("contentType is null when the file has none; a deleted file's metadata is null", async () => {
    const storageId = (await http.action(anyApi.files.storeText, { text: "x" })) as string;
    expect(await http.query(anyApi.files.metadata, { storageId })).toMatchObject({
      size: 1,
      contentType: null,
    });
    await http.mutation(anyApi.files.remove, { storageId });
    expect(await http.query(anyApi.files.metadata, { storageId })).toBeNull();
  });

  it("a large body an HTTP action stores keeps its bytes, type and sha256; no staged copy stays", async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const res = await fetch(`${backend.siteUrl}/api/store`, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: bytes,
    });
    const { storageId } = (await res.json()) as { storageId: string };
    expect(await http.query(anyApi.files.metadata, { storageId })).toEqual({
      storageId,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: bytes.length,
      contentType: "image/png",
    });
    const url = (await http.query(anyApi.files.url, { storageId })) as string;
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(bytes)).toBe(true);
    const files = readdirSync(path.join(backend.dataDir, "files"));
    expect(files.filter((name) => name.startsWith(".upload-"))).toEqual([]);
  });

  it("a large body reads whole as text too", async () => {
    const text = "क".repeat(400_000);
    const res = await fetch(`${backend.siteUrl}/api/echo-url`, { method: "POST", body: text });
    expect(((await res.json()) as { body: string }).body).toBe(text);
  });

  it("an id that does not decode is an invalid argument", async () => {
    await expect(http.query(anyApi.files.metadata, { storageId: "nope" })).rejects.toThrow(
      /Invalid argument `storageId` for `storage.getMetadata`/,
    );
  });
});

describe("ctx.vectorSearch", () => {
  beforeAll(async () => {
    const rows = [
      { label: "x", kind: "a", vector: [1, 0, 0] },
      { label: "xy", kind: "b", vector: [1, 1, 0] },
      { label: "y", kind: "a", vector: [0, 1, 0] },
      { label: "short", kind: "a", vector: [1, 0] },
      { label: "long", kind: "a", vector: [1, 0, 0, 0] },
      { label: "zero", kind: "b", vector: [0, 0, 0] },
    ];
    for (const row of rows) await http.mutation(anyApi.vectors.insert, row);
  });

  const search = async (args: Record<string, unknown>) =>
    (await http.action(anyApi.vectors.search, args)) as { _id: string; _score: number }[];

  it("orders by cosine similarity and skips documents whose vector has another dimension", async () => {
    const results = await search({ vector: [1, 0, 0] });
    expect(results).toHaveLength(4);
    expect(results.map((r) => r._score)).toEqual(
      [1, Math.SQRT1_2, 0, 0].map((x) => expect.closeTo(x, 6)),
    );
    for (const r of results) expect(Number.isFinite(r._score)).toBe(true);
  });

  it("limit and filters (q.or of q.eq on filterFields)", async () => {
    expect(await search({ vector: [1, 0, 0], limit: 1 })).toHaveLength(1);
    const onlyB = await search({ vector: [1, 0, 0], kinds: ["b"] });
    expect(onlyB.map((r) => r._score)).toEqual([Math.SQRT1_2, 0].map((x) => expect.closeTo(x, 6)));
  });

  it("refuses a query vector of the wrong dimension, a limit over 256 and an unindexed filter field", async () => {
    await expect(search({ vector: [1, 0] })).rejects.toThrow(
      "Expected a vector with dimensions 3, received 2.",
    );
    await expect(search({ vector: [1, 0, 0], limit: 257 })).rejects.toThrow(
      "Vector queries can fetch at most 256 results, requested 257.",
    );
    await expect(search({ vector: [1, 0, 0], kinds: ["a"], filterOn: "label" })).rejects.toThrow(
      /contains a filter on "label" but that field isn't indexed for filtering in `filterFields`/,
    );
  });
});
