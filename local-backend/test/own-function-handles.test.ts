// Function handles and `ctx.meta`'s deployment metadata and snapshot timestamp are the engine's answers:
// `createFunctionHandle` gives a root function's `function://;<path>`, and `ctx.runQuery`,
// `ctx.runMutation`, `ctx.runAction` and `ctx.scheduler` by handle run as they do by name, from a
// mutation and from an action. Everything of convex-test those calls could reach is made to throw: its
// syscalls, its runs of queries and mutations and its checks of arguments and results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { jsonToConvex, type JSONValue } from "convex/values";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend, withoutConvexTest } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url, { logger: false });
});
afterAll(closeTestBackends);

const DEPLOYMENT = { name: "local", region: null, class: "s16" };

/** Waits until the counter `name` has been written (by a scheduled job). */
async function counted(name: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const value = (await http.query(anyApi.counters.get, { name })) as number;
    if (value > 0) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return 0;
}

describe("function handles", () => {
  it("are called and scheduled from a mutation", async () => {
    const value = await withoutConvexTest(backend, async () => {
      const result = await backend.engine.call(
        "mutation",
        "handles:mutationByHandle",
        { name: "handle-m" },
        { identity: null },
      );
      expect(await counted("handle-m-later")).toBe(1);
      return result.value;
    });
    expect(value).toEqual({ handle: "function://;handles:snapshot", sameSnapshot: true });
    expect(await http.query(anyApi.counters.get, { name: "handle-m" })).toBe(1);
  });

  it("are called and scheduled from an action", async () => {
    const value = await withoutConvexTest(backend, async () => {
      const result = await http.action(anyApi.handles.actionByHandle, { name: "handle-a" });
      expect(await counted("handle-a-later")).toBe(1);
      return result as unknown;
    });
    expect(value).toEqual({
      deployment: DEPLOYMENT,
      own: DEPLOYMENT,
      inner: "meta:innerActionMeta",
    });
    expect(await http.query(anyApi.counters.get, { name: "handle-a" })).toBe(1);
  });
});

describe("ctx.meta.getSnapshotTs", () => {
  it("is the latest commit a query sees", async () => {
    const snapshot = async () => {
      const { value } = await backend.engine.call(
        "query",
        "handles:snapshot",
        {},
        {
          identity: null,
        },
      );
      return jsonToConvex(value as JSONValue) as { ts: bigint; deployment: unknown };
    };
    const before = await withoutConvexTest(backend, snapshot);
    expect(before.deployment).toEqual(DEPLOYMENT);
    await http.mutation(anyApi.counters.increment, { name: "handle-ts" });
    const after = await withoutConvexTest(backend, snapshot);
    expect(after.ts).toBeGreaterThan(before.ts);
  });
});
