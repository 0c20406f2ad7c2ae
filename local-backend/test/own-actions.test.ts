// Top-level actions (called by a client, a scheduled job) and an action's ctx.runAction run on the
// engine's own path: their arguments and results checked against `exportArgs()` / `exportReturns()`,
// their `invokeAction` in the action pool. `ctx.meta`'s function and request metadata and transaction
// metrics are the engine's answers too. Here everything of convex-test those calls could reach is made
// to throw: its syscalls, its runs of queries and mutations and its checks of arguments and results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import type { CallOptions } from "../engine/engine.ts";
import { closeTestBackends, startTestBackend, withoutConvexTest } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url, { logger: false });
});
afterAll(closeTestBackends);

const identity = {
  subject: "own-user",
  issuer: "https://own",
  tokenIdentifier: "https://own|own-user",
};
const call = (kind: "query" | "mutation" | "action", udfPath: string, args: unknown) =>
  withoutConvexTest(backend, () =>
    backend.engine.call(kind, udfPath, args, { identity: null } satisfies CallOptions),
  );
/** What a call threw, without its request-id frame. */
const failure = (called: Promise<unknown>) =>
  called.then(
    () => "not thrown",
    (error: Error) => error.message.replace(/^\[Request ID: [^\]]*\] Server Error\n/, ""),
  );

describe("a top-level action", () => {
  it("runs in the pool with ctx.runAction, ctx.runQuery and the caller's identity", async () => {
    const result = await withoutConvexTest(backend, () =>
      backend.engine.call("action", "cpu:nested", {}, { identity }),
    );
    expect(result.value).toEqual({ inner: false, echoed: true, subject: "own-user" });
    expect(result.logLines).toEqual(["[LOG] nested ran true"]);
    expect(await withoutConvexTest(backend, () => http.action(anyApi.cpu.spin, { ms: 1 }))).toEqual(
      {
        ms: 1,
        mainThread: false,
      },
    );
  });

  it("has its arguments and result refused with Convex's texts", async () => {
    expect(await failure(call("action", "cpu:spin", { ms: "x" }))).toBe(
      'ArgumentValidationError: Value does not match validator.\nPath: .ms\nValue: "x"\nValidator: v.float64()',
    );
    expect((await call("action", "meta:actionReturns", { bad: false })).value).toBe("ok");
    expect(await failure(call("action", "meta:actionReturns", { bad: true }))).toBe(
      "ReturnsValidationError: Value does not match validator.\n\nValue: 42.0\nValidator: v.string()",
    );
  });

  it("has its ctx.runAction's arguments, result and kind refused with Convex's texts", async () => {
    const calling = async (how: string) =>
      (await call("action", "meta:runsActionBadly", { call: how })).value as string;
    expect(await calling("arguments")).toContain("ArgumentValidationError: Value does not match");
    expect(await calling("result")).toContain("ReturnsValidationError: Value does not match");
    expect(await calling("kind")).toContain(
      "Trying to execute meta.js:queryMeta as Action, but it is defined as Query.",
    );
  });

  it("runs as a scheduled job, its request metadata naming the job", async () => {
    const noted = await withoutConvexTest(backend, async () => {
      const jobId = (await call("mutation", "meta:scheduleJobMeta", {})).value as string;
      for (let i = 0; i < 200; i++) {
        const notes = (await call("query", "jobs:notes", {})).value as string[];
        if (notes.includes(`action ran as ${jobId}`)) return true;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return false;
    });
    expect(noted).toBe(true);
  });
});

describe("ctx.meta", () => {
  it("of a query: its function metadata", async () => {
    expect((await call("query", "meta:queryMeta", {})).value).toEqual({
      name: "meta:queryMeta",
      componentPath: "",
      type: "query",
      visibility: "public",
    });
  });

  it("of a mutation: function and request metadata, and its transaction's metrics", async () => {
    expect((await call("mutation", "meta:mutationMeta", {})).value).toEqual({
      fn: {
        name: "meta:mutationMeta",
        componentPath: "",
        type: "mutation",
        visibility: "public",
      },
      requestId: "string",
      scheduledFunctionId: null,
      databaseQueries: 1,
    });
  });

  it("of an action and of the action it runs, which shares its request", async () => {
    expect((await call("action", "meta:actionMeta", {})).value).toEqual({
      fn: { name: "meta:actionMeta", componentPath: "", type: "action", visibility: "public" },
      inner: "meta:innerActionMeta",
      sameRequest: true,
    });
  });
});
