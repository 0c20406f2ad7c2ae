// What a client sees when it calls a function with arguments the function refuses, over the sync WebSocket
// (ConvexClient) and the HTTP API, against a started backend. On Convex a refused argument is the caller's
// mistake: `ValidatedPathAndArgs::new_inner` (crates/udf/src/validation.rs) returns
// `JsError::from_message("ArgumentValidationError: …")`, and `parse_udf_args` (crates/udf/src/helpers.rs)
// `Invalid arguments for <module>.js:<name>: …` for arguments that are not Convex values. The error reaches
// the client as `RedactedJsError` (crates/application/src/redaction.rs) prints it, "[Request ID: …] Server
// Error\n<text>" on a dev deployment (the text only without block_logging), in `MutationResponse` /
// `ActionResponse` `result` (crates/sync/src/worker.rs) and `QueryFailed.errorMessage`
// (crates/sync/src/state.rs); the client adds "[CONVEX M(path)] " and "\n  Called by client"
// (convex/browser's createHybridErrorStacktrace). An Error a handler throws reaches it the same way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import WebSocket from "ws";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

let backend: Backend;
let client: ConvexClient;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  // logger off: the client would print every refused call to the console
  client = new ConvexClient(backend.url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
  });
  http = new ConvexHttpClient(backend.url);
});
afterAll(async () => {
  await client.close();
  await closeTestBackends();
});

/** An error message with its request id (16 hex digits, checked) shown as `…`. */
function masked(message: string): string {
  expect(message).toMatch(/\[Request ID: [0-9a-f]{16}\] Server Error\n/);
  return message.replace(/\[Request ID: [0-9a-f]{16}\]/, "[Request ID: …]");
}

/** The message of the error `call` fails with, masked. */
async function seen(call: Promise<unknown>): Promise<string> {
  return masked(
    await call.then(
      () => "resolved",
      (error: Error) => error.message,
    ),
  );
}

const MISSING =
  "ArgumentValidationError: Object is missing the required field `name`. Consider wrapping the field validator in `v.optional(...)` if this is expected.\n\n" +
  "Object: {}\nValidator: v.object({name: v.string()})";
const MISTYPED =
  "ArgumentValidationError: Value does not match validator.\nPath: .name\nValue: 5.0\nValidator: v.string()";
const EXTRA =
  "ArgumentValidationError: Object contains extra field `x` that is not in the validator.\n\n" +
  'Object: {name: "a", x: 1.0}\nValidator: v.object({name: v.string()})';
const MISTYPED_MS =
  'ArgumentValidationError: Value does not match validator.\nPath: .ms\nValue: "x"\nValidator: v.float64()';

const sync = (udf: string, text: string) =>
  `[CONVEX ${udf}] [Request ID: …] Server Error\n${text}\n  Called by client`;

describe("over the sync WebSocket (ConvexClient)", () => {
  it("a mutation with a missing, a mistyped and an extra argument: Convex's text", async () => {
    expect(await seen(client.mutation(anyApi.counters.increment, {}))).toBe(
      sync("M(counters:increment)", MISSING),
    );
    expect(await seen(client.mutation(anyApi.counters.increment, { name: 5 }))).toBe(
      sync("M(counters:increment)", MISTYPED),
    );
    expect(await seen(client.mutation(anyApi.counters.increment, { name: "a", x: 1 }))).toBe(
      sync("M(counters:increment)", EXTRA),
    );
  });

  it("a query subscribed with a mistyped argument fails with the text", async () => {
    const failed = new Promise<never>((_resolve, reject) => {
      const unsubscribe = client.onUpdate(
        anyApi.counters.get,
        { name: 5 },
        () => reject(new Error("the query ran")),
        (error) => {
          unsubscribe();
          reject(error);
        },
      );
    });
    expect(await seen(failed)).toBe(sync("Q(counters:get)", MISTYPED));
    expect(await seen(client.query(anyApi.counters.get, { name: 5 }))).toBe(
      sync("Q(counters:get)", MISTYPED),
    );
  });

  it("an action with a mistyped argument, in the default and the Node.js runtime", async () => {
    expect(await seen(client.action(anyApi.cpu.spin, { ms: "x" }))).toBe(
      sync("A(cpu:spin)", MISTYPED_MS),
    );
    expect(await seen(client.action(anyApi.nodeActions.slow, { ms: "x" }))).toBe(
      sync("A(nodeActions:slow)", MISTYPED_MS),
    );
  });

  it("an Error the handler throws reaches the client as on a dev deployment", async () => {
    // Convex adds the handler's stack frames after the first line; this backend sends none.
    expect(await seen(client.mutation(anyApi.conformance.throwsInMutation, { label: "m" }))).toBe(
      sync("M(conformance:throwsInMutation)", "Uncaught Error: mutation failed: m"),
    );
    expect(await seen(client.action(anyApi.conformance.throwsInAction, { label: "a" }))).toBe(
      sync("A(conformance:throwsInAction)", "Uncaught Error: action failed: a"),
    );
  });

  it("arguments that are not Convex values: Invalid arguments, framed as every function error", async () => {
    // ConvexClient cannot send these (convexToJson refuses `$` field names): a raw sync socket does.
    const ws = new WebSocket(`${backend.url.replace("http", "ws")}/api/1.48.0/sync`);
    const responses = new Map<number, { success: boolean; result: string }>();
    const done = new Promise<void>((resolve) =>
      ws.on("message", (data) => {
        const message = JSON.parse(data.toString()) as {
          type: string;
          requestId: number;
          success: boolean;
          result: string;
        };
        if (message.type !== "MutationResponse") return;
        responses.set(message.requestId, message);
        if (responses.size === 2) resolve();
      }),
    );
    await new Promise((resolve) => ws.once("open", resolve));
    ws.send(JSON.stringify({ type: "Connect", sessionId: "invalid-args", connectionCount: 0 }));
    const args = [{ name: { $integer: "not base64 of 8 bytes" } }, { name: { $foo: 1 } }];
    args.forEach((arg, requestId) =>
      ws.send(
        JSON.stringify({ type: "Mutation", requestId, udfPath: "counters:increment", args: [arg] }),
      ),
    );
    await done;
    ws.close();
    for (const response of responses.values()) expect(response.success).toBe(false);
    // The reason is convex/values' text; Convex's Rust decoder words it its own way.
    expect(masked(responses.get(0)!.result)).toMatch(
      /^\[Request ID: …\] Server Error\nInvalid arguments for counters\.js:increment: ./,
    );
    expect(masked(responses.get(1)!.result)).toBe(
      "[Request ID: …] Server Error\nInvalid arguments for counters.js:increment: " +
        "Field name $foo starts with a '$', which is reserved.",
    );
  });
});

describe("over HTTP (POST /api/query|mutation|action)", () => {
  it("the same texts under the same frame", async () => {
    const framed = (text: string) => `[Request ID: …] Server Error\n${text}`;
    expect(await seen(http.mutation(anyApi.counters.increment, {}))).toBe(framed(MISSING));
    expect(await seen(http.mutation(anyApi.counters.increment, { name: 5 }))).toBe(
      framed(MISTYPED),
    );
    expect(await seen(http.query(anyApi.counters.get, { name: 5 }))).toBe(framed(MISTYPED));
    expect(await seen(http.action(anyApi.cpu.spin, { ms: "x" }))).toBe(framed(MISTYPED_MS));

    const res = await fetch(`${backend.url}/api/mutation`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "counters:increment", args: { name: { $foo: 1 } } }),
    });
    expect(res.status).toBe(560);
    const body = (await res.json()) as { errorMessage: string };
    expect(masked(body.errorMessage)).toBe(
      framed(
        "Invalid arguments for counters.js:increment: Field name $foo starts with a '$', which is reserved.",
      ),
    );
  });
});
