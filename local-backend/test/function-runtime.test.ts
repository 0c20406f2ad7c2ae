// Queries and mutations run through convex/server's own invokeQuery / invokeMutation, their syscalls
// answered by the engine (engine/transaction.ts): reads, writes, ids, pages, rollback, refused globals,
// storage deletes and metadata, and nested ctx.runQuery / ctx.runMutation (engine.ts runUdf).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import { closeTestBackends, errorOf, newClient, nextValue, startTestBackend } from "./helpers.ts";

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

describe("nested ctx.runQuery / ctx.runMutation (1.0/runUdf)", () => {
  const callNested = (kind: "query" | "mutation", path: string, args: unknown, mark: string) =>
    http.mutation(anyApi.runtime.callNested, { kind, path, args, mark }) as Promise<{
      value?: unknown;
      error?: string;
      data?: unknown;
    }>;
  const counter = (name: string) => http.query(anyApi.counters.get, { name });

  it("a nested query sees the caller's writes, a stale snapshot does not, a nested mutation's writes are the caller's", async () => {
    expect(await http.mutation(anyApi.runtime.nestedSeesWrites, { name: "seen" })).toEqual({
      seenByQuery: 5,
      staleSnapshot: 0,
      returned: 6,
      seenAfter: 6,
    });
    expect(await counter("seen")).toBe(6);
  });

  it("a stale-snapshot query leaves the caller's open query stream and pending writes as they were", async () => {
    expect(await http.mutation(anyApi.runtime.streamAroundSnapshot, { name: "streamed" })).toEqual([
      { value: 1, stale: false },
      { value: 2, stale: false },
    ]);
  });

  it("a throw in a nested mutation drops only its writes: the caller catches its ConvexError and commits", async () => {
    const answer = await callNested(
      "mutation",
      "runtime:writeThenThrow",
      { name: "thrown-inner" },
      "thrown-outer",
    );
    expect(answer.data).toEqual({ code: "REFUSED", name: "thrown-inner" });
    expect(await counter("thrown-inner")).toBe(0);
    expect(await counter("thrown-outer")).toBe(1);
  });

  it("a nested query's ConvexError reaches the caller with its data's values (an int64 too)", async () => {
    const answer = await callNested("query", "runtime:throwBigint", {}, "bigint-outer");
    expect(answer.data).toEqual({ code: "BIG", n: 2n ** 60n });
  });

  it("a nested call's arguments are checked with Convex's ArgumentValidationError", async () => {
    const answer = await callNested("query", "counters:get", {}, "args-outer");
    expect(answer.error).toMatch(
      /^ArgumentValidationError: Object is missing the required field `name`\./,
    );
    expect(await counter("args-outer")).toBe(1);
  });

  it("a nested mutation's result refused by its returns validator rolls back its writes", async () => {
    const answer = await callNested(
      "mutation",
      "returns:insertAndReturn",
      { name: "returns-inner", bad: true },
      "returns-outer",
    );
    expect(answer.error).toMatch(/^ReturnsValidationError: Value does not match validator\./);
    expect(await counter("returns-inner")).toBe(0);
    expect(await counter("returns-outer")).toBe(1);
  });

  it("internal functions are callable; a missing function or one of another kind is refused", async () => {
    expect(
      await callNested("query", "counters:getInternal", { name: "kinds-outer" }, "kinds-outer"),
    ).toEqual({ value: 1 });
    expect((await callNested("mutation", "counters:get", { name: "x" }, "kinds-2")).error).toBe(
      "Trying to execute counters.js:get as Mutation, but it is defined as Query.",
    );
    expect((await callNested("query", "runtime:nope", {}, "kinds-3")).error).toBe(
      "Could not find public function for 'runtime:nope'.",
    );
  });

  it("a nested query's reads join the caller's read set: its subscription re-runs when they change", async () => {
    const client = newClient(backend.url);
    try {
      const args = { path: "counters:getInternal", args: { name: "watched" } };
      await nextValue(client, anyApi.runtime.queryNested, args, (value) => value === 0);
      const updated = nextValue(client, anyApi.runtime.queryNested, args, (value) => value === 1);
      await http.mutation(anyApi.counters.increment, { name: "watched" });
      expect(await updated).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("a nested query's reads count in the caller's metrics; transactionLimits bounds the nested call", async () => {
    expect(await http.mutation(anyApi.runtime.nestedMetrics, { name: "metered", rows: 3 })).toEqual(
      { counted: [0, 1, 2], error: null, documentsRead: 3, databaseQueries: 1 },
    );
    const limited = (await http.mutation(anyApi.runtime.nestedMetrics, {
      name: "limited",
      rows: 3,
      documentsRead: 2,
    })) as { counted: number[] | null; error: string | null };
    expect(limited.counted).toBeNull();
    expect(limited.error).toMatch(
      /^Too many documents read in a single function execution \(limit: \d+\)\./,
    );
  });

  it("nested mutations started together run one after the other", async () => {
    expect(await http.mutation(anyApi.runtime.concurrentNested, { name: "together" })).toEqual([
      1, 2,
    ]);
    expect(await counter("together")).toBe(2);
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
