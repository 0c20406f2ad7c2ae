// A mutation whose MutationResponse is lost with the connection is resent by convex/browser on reconnect
// (same sessionId, same requestId); it must be applied once and answered with the original result,
// also when the backend was killed (-9) or compacted and restarted in between.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, describe, expect, it } from "vitest";
import { SessionRequests } from "../durability/session-requests.ts";
import { startTcpProxy } from "./tcp-proxy.ts";
import {
  closeTestBackends,
  newClient,
  nextValue,
  startTestBackend,
  tempDataDir,
} from "./helpers.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const cleanups: (() => unknown)[] = [];

afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await closeTestBackends();
});

async function startProxy(target: number) {
  const proxy = await startTcpProxy(target);
  cleanups.push(proxy.close);
  return proxy;
}

async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function spawnChild(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(here, "child-backend.ts"), dataDir],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  cleanups.push(
    () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"),
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
  });
}

const port = (url: string) => Number(new URL(url).port);
const counter = (url: string, name: string) =>
  new ConvexHttpClient(url, { logger: false }).query(anyApi.counters.get, {
    name,
  }) as Promise<number>;

describe("exactly-once mutations over a reconnect", () => {
  it("a mutation committed but unanswered when the socket drops is answered, not applied again, on resend", async () => {
    const backend = await startTestBackend();
    const proxy = await startProxy(port(backend.url));
    const client = newClient(proxy.url);
    cleanups.push(() => client.close());
    await nextValue<number>(client, anyApi.counters.get, { name: "drop" }, (v) => v === 0);

    proxy.state.dropDown = true;
    const first = client.mutation(anyApi.counters.increment, { name: "drop" }) as Promise<number>;
    await until(() => proxy.state.droppedResponses > 0, "the MutationResponse (dropped)");
    expect(await counter(backend.url, "drop")).toBe(1);
    proxy.state.dropDown = false;
    proxy.cut();

    expect(await first).toBe(1);
    expect(await counter(backend.url, "drop")).toBe(1);
    expect(backend.requests.count).toBeGreaterThan(0);
    // The session goes on normally: the next mutation runs.
    expect(await client.mutation(anyApi.counters.increment, { name: "drop" })).toBe(2);
    expect(await counter(backend.url, "drop")).toBe(2);
  }, 30_000);

  it("a mutation lost before it reached the backend runs once when resent", async () => {
    const backend = await startTestBackend();
    const proxy = await startProxy(port(backend.url));
    const client = newClient(proxy.url);
    cleanups.push(() => client.close());
    await nextValue<number>(client, anyApi.counters.get, { name: "lost" }, (v) => v === 0);

    proxy.state.dropUp = true;
    const first = client.mutation(anyApi.counters.increment, { name: "lost" }) as Promise<number>;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await counter(backend.url, "lost")).toBe(0);
    proxy.state.dropUp = false;
    proxy.cut();

    expect(await first).toBe(1);
    expect(await counter(backend.url, "lost")).toBe(1);
  }, 30_000);

  it("survives kill -9: the restarted backend answers the resent mutation from its log", async () => {
    const dataDir = tempDataDir();
    let { child, url } = await spawnChild(dataDir);
    const proxy = await startProxy(port(url));
    const client = newClient(proxy.url);
    cleanups.push(() => client.close());
    await nextValue<number>(client, anyApi.counters.get, { name: "kill" }, (v) => v === 0);
    expect(await client.mutation(anyApi.counters.increment, { name: "kill" })).toBe(1);

    proxy.state.dropDown = true;
    const second = client.mutation(anyApi.counters.increment, { name: "kill" }) as Promise<number>;
    // Sent only after the commit is fsynced: from here on it is acknowledged, just not delivered.
    await until(() => proxy.state.droppedResponses > 0, "the MutationResponse (dropped)");
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    proxy.cut();

    ({ child, url } = await spawnChild(dataDir));
    proxy.state.target = port(url);
    proxy.state.dropDown = false;

    expect(await second).toBe(2);
    expect(await counter(url, "kill")).toBe(2);
    expect(await client.mutation(anyApi.counters.increment, { name: "kill" })).toBe(3);
    expect(await counter(url, "kill")).toBe(3);
  }, 60_000);

  it("survives compaction: the result is in the snapshot and answers the resend after a restart", async () => {
    const dataDir = tempDataDir();
    let backend = await startTestBackend({ dataDir });
    const proxy = await startProxy(port(backend.url));
    const client = newClient(proxy.url);
    cleanups.push(() => client.close());
    await nextValue<number>(client, anyApi.counters.get, { name: "snap" }, (v) => v === 0);

    proxy.state.dropDown = true;
    const first = client.mutation(anyApi.counters.increment, { name: "snap" }) as Promise<number>;
    await until(() => proxy.state.droppedResponses > 0, "the MutationResponse (dropped)");
    backend.compact();
    await backend.close();
    const snapshot = JSON.parse(readFileSync(path.join(dataDir, "snapshot.json"), "utf8")) as {
      requests: unknown[];
    };
    expect(snapshot.requests).toHaveLength(1);
    expect(
      existsSync(path.join(dataDir, "log.jsonl")) &&
        readFileSync(path.join(dataDir, "log.jsonl"), "utf8"),
    ).toBe("");

    backend = await startTestBackend({ dataDir });
    proxy.state.target = port(backend.url);
    proxy.state.dropDown = false;
    proxy.cut();

    expect(await first).toBe(1);
    expect(await counter(backend.url, "snap")).toBe(1);
  }, 30_000);
});

describe("SessionRequests bounds", () => {
  const ms = (n: number) => BigInt(n) * 1_000_000n;

  it("keeps the last perSession results of a session, drops old ones by age and whole sessions over the total", () => {
    const requests = new SessionRequests({ perSession: 3, maxAgeMs: 1000, total: 5 });
    for (let i = 0; i < 5; i++) requests.record("a", i, ms(10_000 + i), i);
    expect(requests.records().map(([, id]) => id)).toEqual([2, 3, 4]);
    requests.record("b", 0, ms(10_500), "b0");
    requests.record("b", 1, ms(10_600), "b1");
    expect(requests.count).toBe(5);
    requests.record("c", 0, ms(10_700), "c0");
    // Over the total: the least recently active session ("a") goes.
    expect(requests.records().map(([s, id]) => `${s}${id}`)).toEqual(["b0", "b1", "c0"]);
    requests.prune(11_550);
    expect(requests.records().map(([s, id]) => `${s}${id}`)).toEqual(["b1", "c0"]);
    requests.prune(20_000);
    expect(requests.count).toBe(0);
  });

  it("a resend while the first run is under way waits for it instead of running again", async () => {
    const requests = new SessionRequests();
    const first = requests.claim("s", 1);
    const second = requests.claim("s", 1);
    expect(first.owner).toBe(true);
    expect(second.owner).toBe(false);
    if (!first.owner || second.owner) return;
    first.settle({ success: true, result: "done", ts: 5n, logLines: ["x"] });
    expect(await second.outcome).toEqual({
      success: true,
      result: "done",
      ts: 5n,
      logLines: ["x"],
    });
    // Remembered in memory (it had no log record), so a later resend is answered too.
    const third = requests.claim("s", 1);
    expect(third.owner).toBe(false);
    expect(requests.records()).toEqual([]);
  });
});
