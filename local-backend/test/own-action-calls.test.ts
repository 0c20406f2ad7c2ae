// An action's ctx.runMutation by name (a pooled action's, an HTTP action's) runs as the engine runs any
// mutation (Engine.invoke), not as a run of convex-test: convex-test's runs of queries and mutations are
// made to throw (the time-limit hook each of them passes through), and those calls still run, their log
// lines in the action's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend, withoutConvexTest } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
beforeAll(async () => {
  backend = await startTestBackend();
  http = new ConvexHttpClient(backend.url);
});
afterAll(closeTestBackends);

describe("an action's ctx.runMutation", () => {
  it("runs on the engine's own path, its log lines in the action's", async () => {
    const result = await withoutConvexTest(backend, () =>
      backend.engine.call(
        "action",
        "messages:sendViaAction",
        { channel: "own-calls", body: "hello" },
        { identity: null },
      ),
    );
    expect(result.value).toBe("done");
    expect(result.logLines).toEqual(["[LOG] inserting hello"]);
    expect(await http.query(anyApi.messages.list, { channel: "own-calls" })).toMatchObject([
      { body: "hello" },
    ]);
  });

  it("runs an HTTP action's ctx.runMutation", async () => {
    const response = await withoutConvexTest(backend, () =>
      fetch(`${backend.siteUrl}/api/slow-count?ms=0&name=own-http`),
    );
    expect(await response.text()).toBe("counted");
    expect(await http.query(anyApi.counters.get, { name: "own-http" })).toBe(1);
  });
});
