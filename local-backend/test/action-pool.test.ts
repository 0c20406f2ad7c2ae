// Actions run in worker threads apart from queries and mutations (engine/action-pool.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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

  /** Runs `body` with the time limits shortened (Convex: 30 and 10 minutes) and the timeouts' logs hushed. */
  async function withLimits(
    limits: { actionMs: number; nodeActionMs?: number },
    body: () => Promise<void>,
  ) {
    const saved = { ...backend.engine.limits };
    Object.assign(backend.engine.limits, limits);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await body();
    } finally {
      Object.assign(backend.engine.limits, saved);
      errors.mockRestore();
    }
  }

  it("an HTTP action past its time limit is stopped: what it would do after never happens", async () => {
    await withLimits({ actionMs: 300 }, async () => {
      const started = performance.now();
      const late = await fetch(`${backend.siteUrl}/api/slow-count?ms=700&name=late-http`);
      expect(late.status).toBe(500);
      // past the moment the handler would have counted, had it run on
      await new Promise((resolve) => setTimeout(resolve, 900 - (performance.now() - started)));
      expect(await http.query(anyApi.counters.get, { name: "late-http" })).toBe(0);
    });
  });

  it("a CPU-bound HTTP action past its limit: its worker ends and the next one is answered", async () => {
    await withLimits({ actionMs: 300 }, async () => {
      expect((await fetch(`${backend.siteUrl}/api/spin-forever`)).status).toBe(500);
      const next = await fetch(`${backend.siteUrl}/api/slow?ms=1`);
      expect(await next.text()).toBe("slept 1");
    });
  });

  it("a top-level action past its limit fails alone: an HTTP action on its worker finishes", async () => {
    const { size } = backend.engine.actions;
    await backend.engine.actions.warm(size);
    await withLimits({ actionMs: 5_000, nodeActionMs: 400 }, async () => {
      const expiring = Array.from({ length: size }, () =>
        errorOf(http.action(anyApi.nodeActions.slow, { ms: 3_000 })),
      );
      await until(() => backend.engine.actions.running === size);
      // every worker runs a top-level action: this one shares a worker whose action expires under it
      const sharing = await fetch(`${backend.siteUrl}/api/slow?ms=800`);
      expect(await sharing.text()).toBe("slept 800");
      expect(await Promise.all(expiring)).toEqual(
        Array(size).fill("Function execution timed out (maximum duration: 400ms)"),
      );
      expect(await http.action(anyApi.cpu.spin, { ms: 1 })).toEqual({ ms: 1, mainThread: false });
    });
  });
});
