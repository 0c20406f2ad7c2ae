// No frame, request target or upgrade can stop the backend, and one connection's burst or unread data
// cannot hold up others (ConnectionLimits in sync-protocol.ts, README "Limits").
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Backend } from "../server.ts";
import { createStaticServer } from "../static.ts";
import { DEFAULT_CONNECTION_LIMITS } from "../sync-protocol.ts";
import { startTcpProxy } from "./tcp-proxy.ts";
import {
  closeTestBackends,
  newClient,
  nextValue,
  rawRequest,
  startTestBackend,
  tempDataDir,
} from "./helpers.ts";

let backend: Backend;
const syncUrl = (b = backend) => `${b.url.replace("http", "ws")}/api/1.48.0/sync`;

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(closeTestBackends);

interface ServerMessage {
  type: string;
  error?: string;
  requestId?: number;
  success?: boolean;
}

/** A sync socket speaking the protocol by hand, keeping what the server sent. */
async function rawClient(b = backend) {
  const ws = new WebSocket(syncUrl(b));
  const received: ServerMessage[] = [];
  const listeners = new Set<() => void>();
  ws.on("message", (data) => {
    received.push(JSON.parse(data.toString()) as ServerMessage);
    for (const listener of listeners) listener();
  });
  const closed = new Promise<number>((resolve) => ws.on("close", resolve));
  ws.on("error", () => {});
  await new Promise((resolve) => ws.on("open", resolve));
  let version = 0;
  return {
    ws,
    received,
    closed,
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    modify(modifications: unknown[]) {
      ws.send(
        JSON.stringify({
          type: "ModifyQuerySet",
          baseVersion: version,
          newVersion: ++version,
          modifications,
        }),
      );
    },
    /** Resolves with the first message (already received or to come) that `predicate` accepts. */
    next(predicate: (m: ServerMessage) => boolean): Promise<ServerMessage> {
      return new Promise((resolve) => {
        const check = () => {
          const found = received.find(predicate);
          if (!found) return;
          listeners.delete(check);
          resolve(found);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Opens a sync socket, sends `frames`, and resolves when the server has closed it. */
function sendFrames(frames: (string | Buffer)[]): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(syncUrl());
    ws.on("open", () => {
      for (const frame of frames) ws.send(frame);
    });
    ws.on("close", () => resolve());
    ws.on("error", () => resolve());
  });
}

async function stillServes() {
  const client = newClient(backend.url);
  try {
    expect(await client.query(anyApi.messages.list, { channel: "canary" })).toBeInstanceOf(Array);
  } finally {
    await client.close();
  }
}

/** Polls `condition` (state inside the backend that no event announces) until it holds. */
async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once `read()` has kept the same value for `quietMs`: the work behind it has stopped. */
async function settled<T>(read: () => T | Promise<T>, quietMs = 300): Promise<T> {
  let last = await read();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = await read();
    if (now === last) return now;
    last = now;
  }
}

const spinAdds = (count: number, firstId: number, ms: number) =>
  Array.from({ length: count }, (_, i) => ({
    type: "Add",
    queryId: firstId + i,
    udfPath: "load:spin",
    args: [{ ms, key: firstId + i }],
  }));

describe("malformed input", () => {
  it.each([
    ["null", "null"],
    ["a number", "42"],
    ["an array", "[]"],
    ["not JSON", "{nope"],
    ["an unknown type", '{"type":"Nope"}'],
    ["a Mutation without a path", '{"type":"Mutation","requestId":1,"args":[{}]}'],
    ["a Mutation with a numeric path", '{"type":"Mutation","requestId":1,"udfPath":7,"args":[{}]}'],
    [
      "a Mutation with two arguments",
      '{"type":"Mutation","requestId":1,"udfPath":"a:b","args":[{},{}]}',
    ],
    [
      "an Action with a string requestId",
      '{"type":"Action","requestId":"1","udfPath":"a:b","args":[]}',
    ],
    [
      "a ModifyQuerySet of garbage",
      '{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":[null]}',
    ],
    [
      "a ModifyQuerySet without versions",
      '{"type":"ModifyQuerySet","modifications":[{"type":"Remove","queryId":1}]}',
    ],
    [
      "an Authenticate of an unknown kind",
      '{"type":"Authenticate","tokenType":"Root","baseVersion":0}',
    ],
    [
      "an Authenticate with a numeric token",
      '{"type":"Authenticate","tokenType":"User","value":1,"baseVersion":0}',
    ],
    ["deep nesting", "[".repeat(100_000) + "]".repeat(100_000)],
  ])("a frame of %s closes that socket only", async (_, frame) => {
    await sendFrames([frame]);
    await stillServes();
  });

  it("a binary frame and bad UTF-8 close that socket only", async () => {
    await sendFrames([Buffer.from([0xff, 0xfe, 0x00, 0x01])]);
    await sendFrames([Buffer.from([0x7b, 0xc3, 0x28, 0x7d]).toString("latin1")]);
    await stillServes();
  });

  it("a frame over the size limit closes that socket only", async () => {
    await sendFrames(["x".repeat(DEFAULT_CONNECTION_LIMITS.maxFrameBytes + 1)]);
    await stillServes();
  });

  it("a function path or arguments no function has get an error, not a crash", async () => {
    const client = await rawClient();
    client.modify([
      { type: "Add", queryId: 1, udfPath: ":::", args: [] },
      { type: "Add", queryId: 2, udfPath: "messages:list", args: [{ channel: 5 }] },
      { type: "Add", queryId: 3, udfPath: "messages:list", args: [{ $undefined: null }] },
    ]);
    client.send({ type: "Mutation", requestId: 0, udfPath: "", args: [] });
    client.send({ type: "Action", requestId: 1, udfPath: "../../etc:passwd", args: [{}] });
    await client.next((m) => m.type === "Transition");
    await client.next((m) => m.type === "MutationResponse" && m.success === false);
    await client.next((m) => m.type === "ActionResponse" && m.success === false);
    expect(client.received.some((m) => m.type === "FatalError")).toBe(false);
    client.ws.close();
    await stillServes();
  });

  it.each(["/%", "/%E0%A4%A", "http://[", "//", "/\u0000"])(
    "the request target %j gets an answer on every port",
    async (target) => {
      const cloud = Number(new URL(backend.url).port);
      const site = Number(new URL(backend.siteUrl).port);
      for (const port of [cloud, site]) {
        expect(
          await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        ).toMatch(/^HTTP\/1\.1 4\d\d|closed/);
      }
      const upgrade = `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
      await rawRequest(cloud, upgrade);
      await stillServes();
    },
  );

  it("the static web server answers malformed targets with 400", async () => {
    const root = tempDataDir();
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, "index.html"), "<!doctype html>");
    const server = createStaticServer(root);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const target of ["/%", "/%E0%A4%A", "http://["])
        expect(
          await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        ).toMatch(/^HTTP\/1\.1 400/);
      expect(
        await rawRequest(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      ).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      server.close();
    }
  });
});

describe("bounded work per connection", () => {
  const fatalOf = async (client: Awaited<ReturnType<typeof rawClient>>) => {
    const fatal = await client.next((m) => m.type === "FatalError");
    await client.closed;
    return fatal.error;
  };

  it("a query set change over the per-frame limit is refused and the socket closed", async () => {
    const client = await rawClient();
    client.modify(
      Array.from({ length: DEFAULT_CONNECTION_LIMITS.maxModificationsPerFrame + 1 }, (_, i) => ({
        type: "Add",
        queryId: i,
        udfPath: "messages:list",
        args: [{ channel: "x" }],
      })),
    );
    expect(await fatalOf(client)).toMatch(/Too many query set modifications .*at most 1024/);
    await stillServes();
  });

  it("subscriptions past the per-connection limit, duplicate and unknown query ids are refused", async () => {
    const small = await startTestBackend({ connectionLimits: { maxSubscriptions: 3 } });
    try {
      const adds = (ids: number[]) =>
        ids.map((queryId) => ({
          type: "Add",
          queryId,
          udfPath: "counters:get",
          args: [{ name: `n${queryId}` }],
        }));
      const tooMany = await rawClient(small);
      tooMany.modify(adds([1, 2]));
      tooMany.modify(adds([3, 4]));
      expect(await fatalOf(tooMany)).toMatch(/Too many subscriptions \(at most 3\)/);
      const duplicate = await rawClient(small);
      duplicate.modify(adds([1, 1]));
      expect(await fatalOf(duplicate)).toMatch(/Duplicate query ID: 1/);
      const unknown = await rawClient(small);
      unknown.modify([{ type: "Remove", queryId: 9 }]);
      expect(await fatalOf(unknown)).toMatch(/Nonexistent query id: 9/);
      // Nothing of theirs stays subscribed.
      expect(small.subscriptions.size).toBe(0);
    } finally {
      await small.close();
    }
  });

  it("mutations past the pending limit close the socket", async () => {
    const small = await startTestBackend({ connectionLimits: { maxPendingMutations: 5 } });
    try {
      const client = await rawClient(small);
      for (let requestId = 0; requestId < 6; requestId++) {
        client.send({
          type: "Mutation",
          requestId,
          udfPath: "load:slowIncrement",
          args: [{ name: "pending", ms: 50 }],
        });
      }
      expect(await fatalOf(client)).toMatch(/Too many concurrent mutations .*at most 5/);
    } finally {
      await small.close();
    }
  });

  it("a 5,000-subscription flood delays another client's queries and mutations by under 500 ms", async () => {
    const flooders = await Promise.all([rawClient(), rawClient()]);
    const runsBefore = backend.subscriptions.runs;
    for (const [s, flooder] of flooders.entries()) {
      for (const [first, count] of [
        [0, 1000],
        [1000, 1000],
        [2000, 500],
      ])
        flooder.modify(spinAdds(count, s * 10_000 + first, 2));
    }
    await until(() => backend.subscriptions.runs > runsBefore + 50);
    const canary = newClient(backend.url);
    try {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await canary.query(anyApi.load.spin, { ms: 0, key: -1 - i });
        times.push(performance.now() - start);
      }
      // Each commit makes every flooding subscription stale: their re-runs are the flooders' own business.
      const http = new ConvexHttpClient(backend.url);
      for (let i = 0; i < 5; i++) {
        let start = performance.now();
        await canary.mutation(anyApi.counters.increment, { name: "flood" });
        times.push(performance.now() - start);
        start = performance.now();
        await http.mutation(anyApi.counters.increment, { name: "flood" });
        times.push(performance.now() - start);
      }
      // Measured while the flood was still being answered.
      const answered = flooders.flatMap((f) => f.received.filter((m) => m.type === "Transition"));
      expect(answered.length).toBeLessThan(6);
      expect(Math.max(...times)).toBeLessThan(500);
    } finally {
      for (const flooder of flooders) flooder.ws.terminate();
      await canary.close();
    }
    // The closed sockets' evaluations stop (the ones under way finish).
    await until(() => backend.subscriptions.size === 0);
    const runsAtClose = backend.subscriptions.runs;
    expect((await settled(() => backend.subscriptions.runs)) - runsAtClose).toBeLessThanOrEqual(2);
  });

  it("a closed socket's queued mutations are dropped; resent on the next connection, one runs", async () => {
    const sessionId = crypto.randomUUID();
    const first = await rawClient();
    first.send({ type: "Connect", sessionId, connectionCount: 0 });
    for (let requestId = 0; requestId < 40; requestId++) {
      first.send({
        type: "Mutation",
        requestId,
        udfPath: "load:slowIncrement",
        args: [{ name: "dropped", ms: 20 }],
      });
    }
    await first.next((m) => m.type === "MutationResponse");
    first.ws.terminate();
    const reader = newClient(backend.url);
    try {
      const count = () => reader.query(anyApi.counters.get, { name: "dropped" });
      const ran = await settled(count);
      expect(ran).toBeLessThan(10);
      const second = await rawClient();
      second.send({ type: "Connect", sessionId, connectionCount: 1 });
      second.send({
        type: "Mutation",
        requestId: 39,
        udfPath: "load:slowIncrement",
        args: [{ name: "dropped", ms: 0 }],
      });
      const response = await second.next((m) => m.type === "MutationResponse");
      expect(response.success).toBe(true);
      expect(await count()).toBe(ran + 1);
      second.ws.close();
    } finally {
      await reader.close();
    }
  });
});

describe("a client that stops reading", () => {
  let small: Backend;
  beforeAll(async () => {
    small = await startTestBackend({
      connectionLimits: {
        maxBufferedBytes: 64 * 1024,
        slowReaderMs: 500,
        transitionChunkChars: 16 * 1024,
      },
    });
  });
  afterAll(() => small.close());

  it("a large transition reaches the client intact in chunks", async () => {
    const client = newClient(small.url);
    try {
      const value = await client.query(anyApi.load.big, { name: "chunks", chars: 100_001 });
      expect(value).toEqual({ value: 0, text: "aé😀".repeat(25_001) });
    } finally {
      await client.close();
    }
  });

  it("is disconnected once it leaves too much unread, and the Convex client reconnects and resubscribes", async () => {
    const proxy = await startTcpProxy(Number(new URL(small.url).port));
    const watcher = newClient(proxy.url);
    const writer = newClient(small.url);
    try {
      const args = { name: "slow", chars: 400_000 };
      await nextValue(watcher, anyApi.load.big, args, () => true);
      proxy.stallDown(true);
      // Updates of ~700 KB each until the socket is given up: the kernel's buffers take the first few.
      const deadline = Date.now() + 15_000;
      while (small.subscriptions.size > 0) {
        if (Date.now() > deadline) throw new Error("the stalled socket was never closed");
        await writer.mutation(anyApi.counters.increment, { name: "slow" });
      }
      proxy.stallDown(false);
      const latest = await writer.mutation(anyApi.counters.increment, { name: "slow" });
      const seen = await nextValue<{ value: number }>(
        watcher,
        anyApi.load.big,
        args,
        (v) => v.value === latest,
        10_000,
      );
      expect(seen.value).toBe(latest);
    } finally {
      await Promise.all([watcher.close(), writer.close()]);
      await proxy.close();
    }
  });
});
