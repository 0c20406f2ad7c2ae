/**
 * Update latency of the local backend: client B's mutation → client A's subscription callback,
 * 500 sequential writes, beside the round trip of a bare `ws` echo on the same machine (the floor).
 * The backend and the echo server each run in their own process. Run: npx tsx bench/realtime.ts
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import WebSocket from "ws";
import { round, summarize, type Summary } from "./lib/stats";

const WRITES = Number(process.env.WRITES ?? 500);

function startChild(args: string[]): Promise<{ child: ChildProcess; info: { url: string } }> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ child, info: JSON.parse(line) as { url: string } });
    });
    child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
  });
}

async function backendLatency(): Promise<Summary> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-realtime-"));
  const { child, info } = await startChild([path.resolve("local-backend/test/child-backend.ts"), dataDir]);
  const ws = WebSocket as unknown as typeof globalThis.WebSocket;
  const a = new ConvexClient(info.url, { webSocketConstructor: ws });
  const b = new ConvexClient(info.url, { webSocketConstructor: ws });
  let waiting: { value: number; resolve: () => void } | undefined;
  let current = -1;
  a.onUpdate(anyApi.counters.get, { name: "bench" }, (v) => {
    current = v as number;
    if (waiting && current >= waiting.value) waiting.resolve();
  });
  while (current < 0) await new Promise((r) => setTimeout(r, 10));
  const samples: number[] = [];
  for (let i = 1; i <= WRITES + 20; i++) {
    const seen = new Promise<void>((resolve) => (waiting = { value: current + 1, resolve }));
    const t0 = performance.now();
    void b.mutation(anyApi.counters.increment, { name: "bench" });
    await seen;
    if (i > 20) samples.push(performance.now() - t0); // first 20 warm up
  }
  await a.close();
  await b.close();
  child.kill();
  return summarize(samples);
}

const ECHO_SERVER = `
const { WebSocketServer } = require("ws");
const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" }, () =>
  console.log(JSON.stringify({ url: "ws://127.0.0.1:" + wss.address().port })));
wss.on("connection", (s) => s.on("message", (m) => s.send(m)));
`;

async function echoLatency(): Promise<Summary> {
  const child = spawn(process.execPath, ["-e", ECHO_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { url: string }).url));
  });
  const socket = new WebSocket(url);
  await new Promise((r) => socket.once("open", r));
  const samples: number[] = [];
  for (let i = 0; i < WRITES + 20; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      socket.once("message", () => resolve());
      socket.send(JSON.stringify({ type: "Mutation", requestId: i, udfPath: "counters:increment", args: [{}] }));
    });
    if (i >= 20) samples.push(performance.now() - t0);
  }
  socket.close();
  child.kill();
  return summarize(samples);
}

const fmt = (s: Summary) => `min ${round(s.min)} ms  median ${round(s.p50)} ms  p95 ${round(s.p95)} ms  p99 ${round(s.p99)} ms  max ${round(s.max)} ms`;
const echo = await echoLatency();
const backend = await backendLatency();
console.log(`realtime update latency over ${WRITES} sequential writes (mutation by B → A's subscription callback)`);
console.log(`  local backend: ${fmt(backend)}`);
console.log(`  bare ws echo:  ${fmt(echo)}`);
console.log(`  targets: median ≤ 3 ms ${backend.p50 <= 3 ? "met" : "NOT met"}, p95 ≤ 10 ms ${backend.p95 <= 10 ? "met" : "NOT met"}`);
