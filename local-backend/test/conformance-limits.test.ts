// Convex's limits, enforced with Convex's error texts: docs "Limits" page, and
// crates/value (arrays, fields, nesting), crates/common/src/document.rs (document size and nesting),
// crates/database reads.rs / writes.rs (per-function reads and writes), crates/model scheduled_jobs,
// crates/isolate (execution time, argument and return value size).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend, errorOf } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url);
});
afterAll(closeTestBackends);

const OVER_LIMIT_HELP =
  "Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.";

const count = () => http.query(anyApi.conformance.count, {}) as Promise<number>;
const insertBuilt = (args: Record<string, number>) =>
  http.mutation(anyApi.conformance.insertBuilt, args);
const nested = (depth: number) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { d: value };
  return value;
};

describe("documents", () => {
  it("at most 1 MiB", async () => {
    await http.mutation(anyApi.conformance.insert, { doc: { value: "x".repeat(1_000_000) } });
    expect(
      await errorOf(
        http.mutation(anyApi.conformance.insert, { doc: { value: "x".repeat(1 << 20) } }),
      ),
    ).toBe("Uncaught Error: Value is too large (1.00 MiB > maximum size 1 MiB)");
  });

  it("arrays of at most 8,192 items", async () => {
    await insertBuilt({ arrayLength: 8192 });
    expect(await errorOf(insertBuilt({ arrayLength: 8193 }))).toBe(
      "Uncaught Error: Invalid argument `value` for `db.insert`: Array length is too long (8193 > maximum length 8192)",
    );
  });

  it("objects of at most 1,024 fields", async () => {
    await insertBuilt({ fields: 1024 });
    expect(await errorOf(insertBuilt({ fields: 1025 }))).toBe(
      "Uncaught Error: Invalid argument `value` for `db.insert`: Object has too many fields (1025 > maximum number 1024)",
    );
  });

  it("nesting of at most 16 levels", async () => {
    await insertBuilt({ depth: 15 });
    expect(await errorOf(insertBuilt({ depth: 16 }))).toMatch(
      /^Uncaught Error: Document\(value: \{_creationTime: \d+(\.\d+)?, _id: "[0-9a-z]+", value: \{d: \{d: .*\}\}\) isn't a valid document: Document is too nested \(nested 17 levels deep > maximum nesting 16\)$/,
    );
  });

  it("no top-level field starting with an underscore but the system fields", async () => {
    expect(
      await errorOf(http.mutation(anyApi.conformance.insert, { doc: { _secret: 1 } })),
    ).toMatch(
      /^Uncaught Error: Document\(value: \{_creationTime: [\d.]+, _id: "[0-9a-z]+", _secret: 1\.0\}\) isn't a valid document: Field '_secret' starts with an underscore, which is only allowed for system fields like '_id'$/,
    );
  });

  it("a patch is checked as the whole document it makes", async () => {
    const id = await http.mutation(anyApi.conformance.insert, {
      doc: { value: "x".repeat(600_000) },
    });
    expect(
      await errorOf(
        http.mutation(anyApi.conformance.patch, { id, fields: { extra: "y".repeat(600_000) } }),
      ),
    ).toBe("Uncaught Error: Value is too large (1.14 MiB > maximum size 1 MiB)");
  });
});

describe("function arguments and return values", () => {
  it("arrays, fields and nesting of arguments", async () => {
    expect(await errorOf(http.query(anyApi.conformance.echo, { value: Array(8193).fill(0) }))).toBe(
      "Invalid arguments for conformance.js:echo: Array length is too long (8193 > maximum length 8192)",
    );
    // The arguments are an array of one object: 62 levels in `value` are 64 with those two.
    expect(await http.query(anyApi.conformance.echo, { value: nested(62) })).toBe(true);
    expect(await errorOf(http.query(anyApi.conformance.echo, { value: nested(63) }))).toBe(
      "Invalid arguments for conformance.js:echo: Value is too nested (nested 65 levels deep > maximum nesting 64)",
    );
  });

  it("a return value of at most 16 MiB and 8,192 items per array", async () => {
    expect(await errorOf(http.query(anyApi.conformance.big, { bytes: 16 * 1024 * 1024 }))).toBe(
      "Function conformance.js:big return value is too large (actual: 16.00 MiB, limit: 16 MiB)",
    );
    expect(await errorOf(http.query(anyApi.conformance.big, { length: 8193 }))).toBe(
      "Function conformance.js:big return value invalid: Array length is too long (8193 > maximum length 8192)",
    );
    expect(await http.query(anyApi.conformance.big, { length: 8192 })).toHaveLength(8192);
  });
});

describe("per function execution", () => {
  it("at most 16,000 documents written; the mutation's writes are rolled back", async () => {
    const before = await count();
    expect(await errorOf(http.mutation(anyApi.conformance.insertMany, { count: 16_001 }))).toBe(
      "Uncaught Error: Too many writes in a single function execution (limit: 16000)",
    );
    expect(await count()).toBe(before);
  });

  it("at most 16 MiB written", async () => {
    expect(
      await errorOf(http.mutation(anyApi.conformance.insertMany, { count: 17, bytes: 1_000_000 })),
    ).toBe("Uncaught Error: Too many bytes written in a single function execution (limit: 16 MiB)");
  });

  it("at most 1,000 functions scheduled by a mutation", async () => {
    expect(await errorOf(http.mutation(anyApi.conformance.scheduleMany, { count: 1001 }))).toBe(
      "Uncaught Error: Too many functions scheduled by this mutation (limit: 1000)",
    );
  });
});

describe("execution time", () => {
  it("Convex's numbers: queries and mutations 1 s, actions 30 min (10 min in Node.js)", () => {
    expect(backend.engine.limits).toMatchObject({
      queryMutationMs: 1000,
      actionMs: 30 * 60 * 1000,
      nodeActionMs: 10 * 60 * 1000,
    });
  });

  it("a query past 1 s fails", async () => {
    expect(await http.query(anyApi.conformance.slowQuery, { ms: 5 })).toBe(5);
    expect(await errorOf(http.query(anyApi.conformance.slowQuery, { ms: 1100 }))).toBe(
      "Function execution timed out (maximum duration: 1s)",
    );
  });

  it("a mutation past 1 s fails and its writes are rolled back", async () => {
    const before = await count();
    expect(await errorOf(http.mutation(anyApi.conformance.slowMutation, { ms: 1100 }))).toBe(
      "Function execution timed out (maximum duration: 1s)",
    );
    expect(await count()).toBe(before);
  });

  it("an action past its limit fails; a Node.js action has the shorter one", async () => {
    const limits = { ...backend.engine.limits };
    // Shortened so the test runs in a moment: 300 ms in Convex's runtime, 100 ms in Node.js.
    Object.assign(backend.engine.limits, { actionMs: 300, nodeActionMs: 100 });
    try {
      expect(await http.action(anyApi.conformance.slowAction, { ms: 200 })).toBe(200);
      expect(await errorOf(http.action(anyApi.nodeActions.slow, { ms: 200 }))).toBe(
        "Function execution timed out (maximum duration: 100ms)",
      );
      expect(await errorOf(http.action(anyApi.conformance.slowAction, { ms: 400 }))).toBe(
        "Function execution timed out (maximum duration: 300ms)",
      );
    } finally {
      Object.assign(backend.engine.limits, limits);
    }
  });
});

// Last: the documents it writes make any query that reads the whole table fail.
describe("reads per function execution", () => {
  it("at most 16 MiB read", async () => {
    await http.mutation(anyApi.conformance.insertMany, { count: 9, bytes: 1_000_000 });
    await http.mutation(anyApi.conformance.insertMany, { count: 9, bytes: 1_000_000 });
    expect(await errorOf(http.query(anyApi.conformance.readAll, {}))).toBe(
      `Uncaught Error: Too many bytes read in a single function execution (limit: 16777216 bytes). ${OVER_LIMIT_HELP}`,
    );
  });
});
