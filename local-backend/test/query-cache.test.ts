import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Doc } from "../engine/document-store.ts";
import type { Change } from "../engine/read-set.ts";
import { QueryCache, type Outcome } from "../read-tracking/query-cache.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

describe("QueryCache", () => {
  const eqMatches = (doc: Doc, filter: unknown) => {
    const { fieldPath, value } = filter as { fieldPath: string; value: unknown };
    return doc[fieldPath] === value;
  };
  const cache = (max?: number) => new QueryCache(eqMatches, max);
  const counter = (id: string, name: string, value: number): Doc => ({
    _id: `counters:${id}`,
    _creationTime: 0,
    name,
    value,
  });
  const write = (before: Doc | null, after: Doc | null): Change[] => [
    { id: (after ?? before)!._id, table: "counters", before, after },
  ];
  /** A run reading the counters named `name` through an index range, counting how often it ran. */
  const runner = (name: string, value: number, { readsIdentity = false } = {}) => {
    const run = async (
      readSet: Parameters<Parameters<QueryCache["get"]>[2]>[0],
    ): Promise<Outcome> => {
      run.calls += 1;
      readSet.addQuery({
        source: {
          type: "IndexRange",
          indexName: "counters.by_name",
          range: [{ type: "Eq", fieldPath: "name", value: name }],
        },
      });
      readSet.identity = readsIdentity;
      return { ok: true, value, logLines: [], journal: null };
    };
    run.calls = 0;
    return run;
  };

  it("shares one run among callers until a commit writes into the range it read", async () => {
    const c = cache();
    const run = runner("a", 1);
    const key = QueryCache.key("counters:get", { name: "a" });
    const stale: string[] = [];
    c.onInvalidate((k) => stale.push(k));
    await Promise.all([c.get(key, null, run), c.get(key, null, run)]);
    // Once the run is known not to read the identity, every caller gets it.
    await Promise.all([c.get(key, "alice", run), c.get(key, "bob", run)]);
    expect(run.calls).toBe(1);
    c.invalidate(write(null, counter("1", "b", 5)));
    await c.get(key, null, run);
    expect(run.calls).toBe(1);
    expect(stale).toEqual([]);
    // A document moving out of the range touches it too (its old version matched).
    c.invalidate(write(counter("2", "a", 1), counter("2", "z", 1)));
    expect(stale).toEqual([key]);
    await c.get(key, null, run);
    expect(run.calls).toBe(2);
  });

  it("a commit checks only the entries whose ranges fix a field to a value it writes, ids it writes, or tables read whole", async () => {
    let checks = 0;
    const c = new QueryCache((doc, filter) => (checks++, eqMatches(doc, filter)));
    const names = Array.from({ length: 100 }, (_, i) => `n${i}`);
    for (const name of names)
      await c.get(QueryCache.key("counters:get", { name }), null, runner(name, 0));
    const byId = QueryCache.key("counters:byId", { id: "counters:7" });
    await c.get(byId, null, async (readSet) => {
      readSet.ids.add("counters:7");
      return { ok: true, value: 7, logLines: [], journal: null };
    });
    const byNumber = QueryCache.key("counters:atValue", { value: 3 });
    await c.get(byNumber, null, async (readSet) => {
      readSet.addQuery({
        source: {
          type: "IndexRange",
          indexName: "counters.by_value",
          range: [{ type: "Eq", fieldPath: "value", value: 3 }],
        },
      });
      return { ok: true, value: null, logLines: [], journal: null };
    });
    const stale: string[] = [];
    c.onInvalidate((k) => stale.push(k));
    c.invalidate(write(counter("7", "n5", 1), counter("7", "n6", 2)));
    expect(stale.sort()).toEqual(
      [
        QueryCache.key("counters:get", { name: "n5" }),
        QueryCache.key("counters:get", { name: "n6" }),
        byId,
      ].sort(),
    );
    // n5's and n6's ranges, and the number range (not filed by value), each against both versions at most
    expect(checks).toBeLessThanOrEqual(6);
    c.invalidate(write(null, counter("8", "new", 3)));
    expect(stale).toContain(byNumber);
  });

  it("keeps a run that read the identity for that caller only", async () => {
    const c = cache();
    const run = runner("a", 1, { readsIdentity: true });
    const key = QueryCache.key("counters:mine", { name: "a" });
    await c.get(key, "alice", run);
    await c.get(key, "alice", run);
    expect(run.calls).toBe(1);
    await c.get(key, "bob", run);
    await c.get(key, null, run);
    expect(run.calls).toBe(3);
  });

  it("does not keep a result whose run a commit overtook", async () => {
    const c = cache();
    const key = QueryCache.key("counters:get", { name: "a" });
    const finish: ((o: Outcome) => void)[] = [];
    const slow = async (readSet: Parameters<Parameters<QueryCache["get"]>[2]>[0]) => {
      readSet.addQuery({
        source: {
          type: "IndexRange",
          indexName: "counters.by_name",
          range: [{ type: "Eq", fieldPath: "name", value: "a" }],
        },
      });
      return await new Promise<Outcome>((resolve) => finish.push(resolve));
    };
    const first = c.get(key, null, slow);
    c.invalidate(write(null, counter("1", "a", 1)));
    const second = c.get(key, null, slow);
    expect(finish).toHaveLength(2);
    finish[0]({ ok: true, value: 0, logLines: [], journal: null });
    expect(await first).toMatchObject({ value: 0 });
    expect(c.size).toBe(1); // the second run's entry only
    finish[1]({ ok: true, value: 1, logLines: [], journal: null });
    await second;
    expect(await c.get(key, null, slow)).toMatchObject({ value: 1 });
    expect(finish).toHaveLength(2);
  });

  it("evicts the least recently used entries, never those of retained keys", async () => {
    const c = cache(2);
    const [a, b, d] = [
      QueryCache.key("q", { n: "a" }),
      QueryCache.key("q", { n: "b" }),
      QueryCache.key("q", { n: "d" }),
    ];
    const runA = runner("a", 1);
    c.retain(a);
    await c.get(a, null, runA);
    await c.get(b, null, runner("b", 2));
    await c.get(d, null, runner("d", 3));
    expect(c.size).toBe(2);
    await c.get(a, null, runA);
    expect(runA.calls).toBe(1);
  });

  it("keys are a short hash however large the arguments and journal", () => {
    const big = "x".repeat(5 * 1024 * 1024);
    const key = QueryCache.key("q", { text: big }, big);
    expect(key.length).toBeLessThanOrEqual(43);
    expect(key).not.toBe(QueryCache.key("q", { text: big }, null));
    expect(key).not.toBe(QueryCache.key("q", { text: `${big}y` }, big));
  });

  it("keeps finished outcomes within its byte budget, never evicting retained keys", async () => {
    const c = new QueryCache(eqMatches, 10_000, 3_000);
    const bulky = (n: number) => async (): Promise<Outcome> => ({
      ok: true,
      value: "v".repeat(1_000) + n,
      logLines: [],
      journal: null,
    });
    const kept = QueryCache.key("q", { n: -1 });
    c.retain(kept);
    await c.get(kept, null, bulky(-1));
    for (let n = 0; n < 20; n++) await c.get(QueryCache.key("q", { n }), null, bulky(n));
    expect(c.heldBytes).toBeLessThanOrEqual(3_000);
    expect(c.size).toBe(2);
    expect(c.has(kept, null)).toBe(true);
  });
});

describe("query cache in the backend", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startTestBackend();
  });
  afterAll(closeTestBackends);

  it("answers repeated HTTP API queries from one run until a write to what it read", async () => {
    const http = new ConvexHttpClient(backend.url);
    await http.mutation(anyApi.counters.increment, { name: "api" });
    expect(await http.query(anyApi.counters.get, { name: "api" })).toBe(1);
    const runs = backend.engine.queries.runs;
    expect(await http.query(anyApi.counters.get, { name: "api" })).toBe(1);
    await http.mutation(anyApi.counters.increment, { name: "elsewhere" });
    expect(await http.query(anyApi.counters.get, { name: "api" })).toBe(1);
    expect(backend.engine.queries.runs).toBe(runs);
    await http.mutation(anyApi.counters.increment, { name: "api" });
    expect(await http.query(anyApi.counters.get, { name: "api" })).toBe(2);
    expect(backend.engine.queries.runs).toBe(runs + 1);
  });

  it("serves ctx.runQuery inside HTTP actions from the cache, errors included, and sees new writes", async () => {
    const get = async (name: string) => {
      const res = await fetch(`${backend.siteUrl}/api/counter?name=${name}`);
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await get("site")).toEqual({
      status: 404,
      body: { error: { code: "NO_COUNTER", name: "site" } },
    });
    const runs = backend.engine.queries.runs;
    expect(await get("site")).toEqual({
      status: 404,
      body: { error: { code: "NO_COUNTER", name: "site" } },
    });
    expect(backend.engine.queries.runs).toBe(runs);
    await new ConvexHttpClient(backend.url).mutation(anyApi.counters.increment, { name: "site" });
    expect(await get("site")).toEqual({ status: 200, body: { value: 1 } });
    expect(await get("site")).toEqual({ status: 200, body: { value: 1 } });
    expect(backend.engine.queries.runs).toBe(runs + 1);
  });

  it("re-runs a subscription a write touched but sends nothing when its result is unchanged", async () => {
    const ws = new WebSocket(`${backend.url.replace("http", "ws")}/api/1.0/sync`);
    await new Promise((resolve) => ws.once("open", resolve));
    const updates: { queryId: number; value?: unknown }[] = [];
    ws.on("message", (data) => {
      const message = JSON.parse(data.toString()) as {
        type: string;
        modifications?: { queryId: number; value?: unknown }[];
      };
      if (message.type === "Transition") updates.push(...(message.modifications ?? []));
    });
    ws.send(
      JSON.stringify({
        type: "Connect",
        sessionId: "unchanged",
        connectionCount: 0,
        lastCloseReason: null,
      }),
    );
    const add = (queryId: number, udfPath: string, name: string) =>
      ws.send(
        JSON.stringify({
          type: "ModifyQuerySet",
          baseVersion: queryId,
          newVersion: queryId + 1,
          modifications: [{ type: "Add", queryId, udfPath, args: [{ name }] }],
        }),
      );
    add(0, "counters:exists", "same");
    add(1, "counters:get", "witness");
    await expect.poll(() => updates.length).toBe(2);
    const http = new ConvexHttpClient(backend.url);
    await http.mutation(anyApi.counters.increment, { name: "same" });
    await expect.poll(() => updates.length).toBe(3);
    const runs = backend.engine.queries.runs;
    for (let i = 0; i < 3; i++) await http.mutation(anyApi.counters.increment, { name: "same" });
    // an update of the same connection sent after those commits: anything for query 0 came before it
    await http.mutation(anyApi.counters.increment, { name: "witness" });
    await expect.poll(() => updates.at(-1)?.queryId).toBe(1);
    ws.close();
    expect(updates.map((u) => [u.queryId, u.value])).toEqual([
      [0, false],
      [1, 0],
      [0, true],
      [1, 1],
    ]);
    expect(backend.engine.queries.runs - runs).toBe(4); // each write re-ran what it touched
  });

  it("never skips a version: each Transition starts where the previous one ended, through a burst of commits", async () => {
    const ws = new WebSocket(`${backend.url.replace("http", "ws")}/api/1.0/sync`);
    await new Promise((resolve) => ws.once("open", resolve));
    type Transition = {
      type: string;
      startVersion: unknown;
      endVersion: unknown;
      modifications: { value?: number }[];
    };
    const transitions: Transition[] = [];
    ws.on("message", (data) => {
      const message = JSON.parse(data.toString()) as Transition;
      if (message.type === "Transition") transitions.push(message);
    });
    ws.send(
      JSON.stringify({
        type: "Connect",
        sessionId: "versions",
        connectionCount: 0,
        lastCloseReason: null,
      }),
    );
    ws.send(
      JSON.stringify({
        type: "ModifyQuerySet",
        baseVersion: 0,
        newVersion: 1,
        modifications: [
          { type: "Add", queryId: 0, udfPath: "counters:get", args: [{ name: "burst" }] },
        ],
      }),
    );
    const http = new ConvexHttpClient(backend.url);
    await Promise.all(
      Array.from({ length: 20 }, () => http.mutation(anyApi.counters.increment, { name: "burst" })),
    );
    await expect.poll(() => transitions.at(-1)?.modifications.at(-1)?.value).toBe(20);
    ws.close();
    for (let i = 1; i < transitions.length; i++)
      expect(transitions[i].startVersion).toEqual(transitions[i - 1].endVersion);
  });
});
