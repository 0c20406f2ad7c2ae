/**
 * Real-time update latency: client B's mutation → client A's subscription callback, sequential
 * writes on a fresh local backend (fixture `counters` functions, no rate limit), beside the round
 * trip of a bare `ws` echo server on the same machine (the floor). Each server in its own process.
 */
import { spawn } from "node:child_process";
import { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import WebSocket from "ws";
import { FIXTURE_CONVEX_DIR, startBenchBackend } from "../lib/backend";
import { summarize, type Summary } from "../lib/stats";

const WARM_UP = 20;

async function backendLatency(writes: number): Promise<Summary> {
  const backend = await startBenchBackend(FIXTURE_CONVEX_DIR);
  const ws = WebSocket as unknown as typeof globalThis.WebSocket;
  const a = new ConvexClient(backend.url, {
    webSocketConstructor: ws,
    unsavedChangesWarning: false,
  });
  const b = new ConvexClient(backend.url, {
    webSocketConstructor: ws,
    unsavedChangesWarning: false,
  });
  let waiting: { value: number; resolve: () => void } | undefined;
  let current = -1;
  a.onUpdate(anyApi.counters.get, { name: "bench" }, (v) => {
    current = v as number;
    if (waiting && current >= waiting.value) waiting.resolve();
  });
  while (current < 0) await new Promise((r) => setTimeout(r, 10));
  const samples: number[] = [];
  for (let i = 1; i <= writes + WARM_UP; i++) {
    const seen = new Promise<void>((resolve) => (waiting = { value: current + 1, resolve }));
    const t0 = performance.now();
    void b.mutation(anyApi.counters.increment, { name: "bench" });
    await seen;
    if (i > WARM_UP) samples.push(performance.now() - t0);
  }
  await a.close();
  await b.close();
  await backend.close();
  return summarize(samples);
}

const ECHO_SERVER = `
const { WebSocketServer } = require("ws");
const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" }, () =>
  console.log(JSON.stringify({ url: "ws://127.0.0.1:" + wss.address().port })));
wss.on("connection", (s) => s.on("message", (m) => s.send(m)));
`;

async function echoLatency(writes: number): Promise<Summary> {
  const child = spawn(process.execPath, ["-e", ECHO_SERVER], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) =>
      resolve((JSON.parse(chunk.toString()) as { url: string }).url),
    );
  });
  const socket = new WebSocket(url);
  await new Promise((r) => socket.once("open", r));
  const samples: number[] = [];
  for (let i = 0; i < writes + WARM_UP; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      socket.once("message", () => resolve());
      socket.send(
        JSON.stringify({
          type: "Mutation",
          requestId: i,
          udfPath: "counters:increment",
          args: [{}],
        }),
      );
    });
    if (i >= WARM_UP) samples.push(performance.now() - t0);
  }
  socket.close();
  child.kill();
  return summarize(samples);
}

export type RealtimeResult = { writes: number; backend: Summary; echo: Summary };

export async function realtime({ writes = 500 } = {}): Promise<RealtimeResult> {
  const echo = await echoLatency(writes);
  const backend = await backendLatency(writes);
  return { writes, backend, echo };
}
