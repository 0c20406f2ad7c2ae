// Queries and mutations run through convex/server's own invokeQuery / invokeMutation, their syscalls
// answered by the engine (engine/transaction.ts): reads, writes, ids, pages, rollback, refused globals,
// storage deletes and metadata, and what convex-test still answers for them (nested ctx.run*).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import { closeTestBackends, errorOf, newClient, startTestBackend } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url);
});
afterAll(closeTestBackends);

describe("a mutation's syscalls", () => {
  it("insert, patch, replace, get and delete see the transaction's own writes", async () => {
    const result = await http.mutation(anyApi.runtime.writeCycle, { name: "cycle" });
    expect(result).toMatchObject({ patched: 2, replaced: "cycle-replaced", deleted: true });
    expect(await http.query(anyApi.runtime.byName, { name: "cycle" })).toEqual({
      first: 10,
      page: [10],
      done: true,
    });
    expect(await http.query(anyApi.runtime.byName, { name: "cycle-replaced" })).toEqual({
      first: null,
      page: [],
      done: true,
    });
  });

  it("a thrown ConvexError rolls the writes back and its data reaches the caller", async () => {
    const error = await http.mutation(anyApi.runtime.writeThenThrow, { name: "rolled-back" }).then(
      () => null,
      (e: { data?: unknown }) => e.data,
    );
    expect(error).toEqual({ code: "REFUSED", name: "rolled-back" });
    expect(await http.query(anyApi.counters.get, { name: "rolled-back" })).toBe(0);
  });

  it("fetch is refused inside a mutation", async () => {
    expect(await errorOf(http.mutation(anyApi.runtime.fetchInMutation, {}))).toMatch(
      /^Uncaught Error: `fetch` is not supported in Convex queries or mutations\./,
    );
  });

  it("nested ctx.runMutation / ctx.runQuery and the scheduler run in the mutation's transaction", async () => {
    const result = (await http.mutation(anyApi.runtime.nestedAndScheduled, { name: "nested" })) as {
      counted: number;
      job: string;
    };
    expect(result).toMatchObject({ counted: 1, job: "pending" });
    // the scheduled increment runs once the mutation has committed
    for (let i = 0; i < 100; i++) {
      if ((await http.query(anyApi.counters.get, { name: "nested" })) === 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await http.query(anyApi.counters.get, { name: "nested" })).toBe(2);
  });
});

describe("storage syscalls in a mutation", () => {
  it("storage.delete and getMetadata see the transaction's own delete, which a throw rolls back", async () => {
    const storageId = (await http.action(anyApi.files.storeText, { text: "hello" })) as string;
    expect(
      await errorOf(http.mutation(anyApi.runtime.deleteFile, { storageId, fail: true })),
    ).toMatch(/UNDONE/);
    expect(await http.query(anyApi.files.metadata, { storageId })).toMatchObject({ size: 5 });
    expect(await http.mutation(anyApi.runtime.deleteFile, { storageId, fail: false })).toEqual({
      before: 5,
      after: null,
    });
    expect(await http.query(anyApi.files.metadata, { storageId })).toBeNull();
    expect(await http.query(anyApi.files.url, { storageId })).toBeNull();
    // a deleted file is not deleted twice: convex-test's text for a missing document
    expect(
      await errorOf(http.mutation(anyApi.runtime.deleteFile, { storageId, fail: false })),
    ).toMatch(/Delete on non-existent doc/);
  });
});

describe("a query's syscalls", () => {
  it("normalizeId answers an id only for its own table", async () => {
    const { kept } = (await http.mutation(anyApi.runtime.writeCycle, { name: "ids" })) as {
      kept: string;
    };
    expect(await http.query(anyApi.runtime.normalize, { id: kept })).toEqual({
      counters: kept,
      messages: null,
      garbage: null,
    });
  });

  it("a second .paginate() in one function is refused with Convex's text", async () => {
    expect(await errorOf(http.query(anyApi.runtime.twoPages, {}))).toMatch(
      /^Uncaught Error: Only a single paginated query \(`\.paginate\(\)`\) is allowed per function execution\./,
    );
  });
});

describe("argument errors over the sync WebSocket", () => {
  it("a missing argument of a mutation reaches the client with Convex's ArgumentValidationError", async () => {
    const client = newClient(backend.url);
    try {
      const error = await client.mutation(anyApi.counters.increment, {}).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(error).toMatch(
        /^\[CONVEX M\(counters:increment\)\] \[Request ID: [0-9a-f]{16}\] Server Error\nArgumentValidationError: Object is missing the required field `name`\./,
      );
    } finally {
      await client.close();
    }
  });
});
