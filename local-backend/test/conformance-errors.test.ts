// Error texts as Convex gives them: argument and return value validation
// (crates/common/src/schemas/validator.rs, crates/udf/src/validation.rs), schema enforcement, uncaught
// errors, the dev deployment's "[Request ID: …] Server Error" frame, unknown HTTP routes
// (crates/isolate/src/environment/action/mod.rs).
import path from "node:path";
import { fileURLToPath } from "node:url";
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

const VALIDATOR =
  'v.object({exact: v.optional(v.literal("only")), kind: v.optional(v.union(v.literal("a"), v.literal("b"))), ' +
  'name: v.string(), point: v.object({x: v.float64(), y: v.optional(v.float64())}), ref: v.optional(v.id("messages")), ' +
  "scores: v.optional(v.record(v.string(), v.float64())), tags: v.array(v.string())})";

const validated = (args: Record<string, unknown>) =>
  errorOf(
    http.mutation(anyApi.conformance.validated, { name: "n", point: { x: 1 }, tags: [], ...args }),
  );

describe("argument validation", () => {
  it("a value of the wrong type: the path, the value and the validator", async () => {
    expect(await validated({ name: 5 })).toBe(
      "ArgumentValidationError: Value does not match validator.\nPath: .name\nValue: 5.0\nValidator: v.string()",
    );
    expect(await validated({ tags: ["a", true] })).toBe(
      "ArgumentValidationError: Value does not match validator.\nPath: .tags[1]\nValue: true\nValidator: v.string()",
    );
    expect(await validated({ scores: { math: "A" } })).toBe(
      'ArgumentValidationError: Value does not match validator.\nPath: .scores.values()\nValue: "A"\nValidator: v.float64()',
    );
    expect(await validated({ kind: "c" })).toBe(
      'ArgumentValidationError: Value does not match validator.\nPath: .kind\nValue: "c"\nValidator: v.union(v.literal("a"), v.literal("b"))',
    );
  });

  it("a missing and an extra field name the object and its validator", async () => {
    expect(await validated({ point: { y: 2 } })).toBe(
      "ArgumentValidationError: Object is missing the required field `x`. Consider wrapping the field validator in `v.optional(...)` if this is expected.\n" +
        "Path: .point\nObject: {y: 2.0}\nValidator: v.object({x: v.float64(), y: v.optional(v.float64())})",
    );
    expect(await validated({ extra: "e" })).toBe(
      "ArgumentValidationError: Object contains extra field `extra` that is not in the validator.\n\n" +
        `Object: {extra: "e", name: "n", point: {x: 1.0}, tags: []}\nValidator: ${VALIDATOR}`,
    );
  });

  it("a literal and an id of another table", async () => {
    expect(await validated({ exact: "other" })).toBe(
      'ArgumentValidationError: `"other"` does not match literal validator `v.literal("only")`.Path: .exact',
    );
    const fileId = await http.mutation(anyApi.conformance.insert, { doc: { value: 1 } });
    expect(await validated({ ref: fileId })).toBe(
      `ArgumentValidationError: Found ID "${fileId}" from table \`blobs\`, which does not match the table name in validator \`v.id("messages")\`.Path: .ref`,
    );
    expect(await validated({ ref: "not an id" })).toBe(
      'ArgumentValidationError: Value does not match validator.\nPath: .ref\nValue: "not an id"\nValidator: v.id("messages")',
    );
  });
  // Over the sync WebSocket (ConvexClient): conformance-argument-errors.test.ts.
});

describe("other function errors", () => {
  it("a return value its validator refuses", async () => {
    expect(await errorOf(http.query(anyApi.conformance.badReturn, {}))).toBe(
      'ReturnsValidationError: Value does not match validator.\nPath: .count\nValue: "three"\nValidator: v.float64()',
    );
  });

  it("a document its table's schema refuses", async () => {
    expect(
      await errorOf(http.mutation(anyApi.conformance.insert, { doc: { value: 1, other: 2 } })),
    ).toBe(
      'Uncaught Error: Failed to insert or update a document in table "blobs" because it does not match the schema: ' +
        "Object contains extra field `other` that is not in the validator.\n\n" +
        "Object: {other: 2.0, value: 1.0}\nValidator: v.object({extra: v.optional(v.any()), value: v.optional(v.any())})",
    );
  });

  it("an uncaught error keeps its name", async () => {
    expect(await errorOf(http.query(anyApi.conformance.throwsTypeError, {}))).toBe(
      "Uncaught TypeError: not a function",
    );
  });

  it("a function called as another kind, and one that does not exist", async () => {
    expect(await errorOf(http.mutation(anyApi.counters.get, { name: "x" }))).toBe(
      "Trying to execute counters.js:get as Mutation, but it is defined as Query.",
    );
    expect(await errorOf(http.query(anyApi.counters.nope, {}))).toBe(
      "Could not find public function for 'counters:nope'.",
    );
  });
});

describe("HTTP actions", () => {
  it("a deployment without convex/http.ts: 404 and Convex's text", async () => {
    const bare = await startTestBackend({
      convexDir: path.join(path.dirname(fileURLToPath(import.meta.url)), "fixture-index"),
    });
    const res = await fetch(`${bare.siteUrl}/anything`);
    expect([res.status, res.headers.get("content-type"), await res.text()]).toEqual([
      404,
      "text/plain; charset=utf-8",
      "This Convex deployment does not have HTTP actions enabled.",
    ]);
  });

  it("a path or method no route takes: 404 No matching routes found", async () => {
    for (const [path, method] of [
      ["/nope", "GET"],
      ["/api/whoami", "POST"],
    ]) {
      const res = await fetch(`${backend.siteUrl}${path}`, { method });
      expect([res.status, res.headers.get("content-type"), await res.text()]).toEqual([
        404,
        "text/plain; charset=utf-8",
        "No matching routes found",
      ]);
    }
  });
});
