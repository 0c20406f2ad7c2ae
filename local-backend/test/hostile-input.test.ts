// No frame, request target or upgrade can stop the backend, and one connection's burst or unread data
// cannot hold up others (CONNECTION_LIMITS in sync-protocol.ts).
import { connect } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { anyApi } from "convex/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startBackend, type Backend } from "../server.ts";
import { createStaticServer } from "../static.ts";
import { CONNECTION_LIMITS } from "../sync-protocol.ts";
import { fixtureConvexDir, newClient, removeTempDataDirs, tempDataDir } from "./helpers.ts";

let backend: Backend;
const syncUrl = () => `${backend.url.replace("http", "ws")}/api/1.0/sync`;

beforeAll(async () => {
  backend = await startBackend({
    port: 0,
    sitePort: 0,
    dataDir: tempDataDir(),
    convexDir: fixtureConvexDir,
  });
});

afterAll(async () => {
  await backend.close();
  removeTempDataDirs();
});

/** Sends raw bytes as an HTTP request and resolves with the status line (or "closed"). */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString()));
    socket.on("close", () => resolve(data.split("\r\n")[0] || "closed"));
    socket.on("error", () => resolve("closed"));
    socket.setTimeout(3000, () => socket.destroy());
  });
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
      "a ModifyQuerySet of garbage",
      '{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":[null]}',
    ],
    [
      "an Authenticate of an unknown kind",
      '{"type":"Authenticate","tokenType":"Root","baseVersion":0}',
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
    await sendFrames(["x".repeat(CONNECTION_LIMITS.maxFrameBytes + 1)]);
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
  it("a query set over the limit is refused and the socket closed", async () => {
    const modifications = Array.from(
      { length: CONNECTION_LIMITS.maxModificationsPerFrame + 1 },
      (_, i) => ({
        type: "Add",
        queryId: i,
        udfPath: "messages:list",
        args: [{ channel: "x" }],
      }),
    );
    await sendFrames([
      JSON.stringify({ type: "ModifyQuerySet", baseVersion: 0, newVersion: 1, modifications }),
    ]);
    await stillServes();
  });

  it("another client's query is answered within a few hundred ms while a socket floods subscriptions", async () => {
    const flooder = new WebSocket(syncUrl());
    await new Promise((resolve) => flooder.on("open", resolve));
    let version = 0;
    for (let batch = 0; batch < 4; batch++) {
      const modifications = Array.from(
        { length: CONNECTION_LIMITS.maxModificationsPerFrame },
        (_, i) => ({
          type: "Add",
          queryId: batch * 10_000 + i,
          udfPath: "messages:list",
          args: [{ channel: `${batch}-${i}` }],
        }),
      );
      flooder.send(
        JSON.stringify({
          type: "ModifyQuerySet",
          baseVersion: version,
          newVersion: version + 1,
          modifications,
        }),
      );
      version += 1;
    }
    const client = newClient(backend.url);
    try {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const start = performance.now();
        await client.query(anyApi.messages.list, { channel: "canary" });
        times.push(performance.now() - start);
      }
      expect(Math.max(...times)).toBeLessThan(500);
    } finally {
      flooder.terminate();
      await client.close();
    }
  });
});
