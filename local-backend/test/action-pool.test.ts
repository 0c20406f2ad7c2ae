// Actions run in worker threads apart from queries and mutations (engine/action-pool.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import type { Backend } from "../server.ts";
import { closeTestBackends, errorOf, signToken, startTestBackend } from "./helpers.ts";

let backend: Backend;
let http: ConvexHttpClient;
let dataDir: string;

beforeAll(async () => {
  backend = await startTestBackend();
  dataDir = backend.dataDir;
  http = new ConvexHttpClient(backend.url, { logger: false });
});
afterAll(closeTestBackends);

/** Resolves once `check` holds, looking every 5 ms. */
async function until(check: () => boolean) {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("actions in the worker pool", () => {
  it("run off the main thread, with ctx.runAction, ctx.runQuery and the caller's identity", async () => {
    expect(await http.action(anyApi.cpu.spin, { ms: 1 })).toEqual({ ms: 1, mainThread: false });
    const signedIn = new ConvexHttpClient(backend.url, { logger: false });
    signedIn.setAuth(await signToken(dataDir, backend.siteUrl, "pool-user"));
    expect(await signedIn.action(anyApi.cpu.nested, {})).toEqual({
      inner: false,
      echoed: true,
      subject: "pool-user",
    });
  });

  it("a CPU-bound action delays only itself: queries are answered while it loops", async () => {
    const looping = http.action(anyApi.cpu.spin, { ms: 1500 });
    await until(() => backend.engine.actions.running > 0);
    const latencies: number[] = [];
    while (backend.engine.actions.running > 0) {
      const started = performance.now();
      await http.query(anyApi.conformance.echo, { value: latencies.length });
      latencies.push(performance.now() - started);
    }
    expect(await looping).toEqual({ ms: 1500, mainThread: false });
    expect(latencies.length).toBeGreaterThan(10);
    // A shared, busy test machine: generous, where the main thread held for 1.5 s would fail it.
    expect(Math.max(...latencies)).toBeLessThan(500);
  });

  it("an action past its time limit is stopped: its worker ends and the next action runs", async () => {
    const limits = { ...backend.engine.limits };
    Object.assign(backend.engine.limits, { actionMs: 300 });
    try {
      expect(await errorOf(http.action(anyApi.cpu.forever, {}))).toBe(
        "Function execution timed out (maximum duration: 300ms)",
      );
      expect(backend.engine.actions.running).toBe(0);
      expect(await http.action(anyApi.cpu.spin, { ms: 1 })).toEqual({
        ms: 1,
        mainThread: false,
      });
    } finally {
      Object.assign(backend.engine.limits, limits);
    }
  });

  it("at most the pool's workers run at once; the others wait their turn", async () => {
    const { size } = backend.engine.actions;
    await backend.engine.actions.warm(size);
    let running = 0;
    let threads = 0;
    const sample = setInterval(() => {
      running = Math.max(running, backend.engine.actions.running);
      threads = Math.max(threads, backend.engine.actions.threads);
    }, 5);
    try {
      const runs = Array.from({ length: size + 2 }, () =>
        http.action(anyApi.cpu.spin, { ms: 500 }),
      );
      expect(await Promise.all(runs)).toHaveLength(size + 2);
    } finally {
      clearInterval(sample);
    }
    expect(running).toBe(size);
    expect(threads).toBeLessThanOrEqual(size);
  });
});
