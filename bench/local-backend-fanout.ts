/**
 * Fan-out on the local backend's engine, with fixture functions (local-backend/test/fixture-convex):
 * N reporters write a location every 5 s while N clients watch their city's markers and 50
 * unrelated subscriptions stay open. Prints p95 update latency and server CPU for 10 → 100 → 300.
 * The backend runs in its own process. Run: npx tsx bench/local-backend-fanout.ts
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import WebSocket from "ws";
import { cpuSeconds } from "./lib/cpu";
import { runFanout, type FanoutTarget } from "./lib/fanout";
import { round } from "./lib/stats";

const DURATION_MS = Number(process.env.DURATION_MS ?? 20_000);
const ws = WebSocket as unknown as typeof globalThis.WebSocket;

async function startTarget(): Promise<FanoutTarget & { pid: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-fanout-"));
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("local-backend/test/child-backend.ts"), dataDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  const clients: ConvexClient[] = [];
  const connect = () => {
    const c = new ConvexClient(url, { webSocketConstructor: ws, unsavedChangesWarning: false });
    clients.push(c);
    return c;
  };
  for (let i = 0; i < 50; i++) connect().onUpdate(anyApi.counters.get, { name: `unrelated-${i}` }, () => {});
  return {
    pid: child.pid!,
    async watch(city, seen) {
      const last = new Map<string, number>();
      await new Promise<void>((ready) => {
        connect().onUpdate(anyApi.locations.current, { city }, (rows) => {
          for (const r of rows as { id: string; lat: number }[]) {
            if (last.get(r.id) !== r.lat) seen(r.id, r.lat);
            last.set(r.id, r.lat);
          }
          ready();
        });
      });
    },
    async reporter(index, city) {
      const c = connect();
      await c.query(anyApi.counters.get, { name: "warm-up" }); // connected before the first report
      return async (lat, lng) => {
        await c.mutation(anyApi.locations.update, { reporter: String(index), city, lat, lng });
      };
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      child.kill();
    },
  };
}

for (const n of (process.env.CLIENTS ?? "10,100,300").split(",").map(Number)) {
  const target = await startTarget();
  const cpu0 = cpuSeconds(target.pid);
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await runFanout(target, n, { durationMs: DURATION_MS });
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = (cpuSeconds(target.pid) - cpu0) / elapsed;
  const used = process.cpuUsage(clientCpu0);
  const clientCpu = (used.user + used.system) / 1e6 / elapsed;
  await target.close();
  const l = result.latency;
  console.log(
    `${n} reporters + ${n} watchers + 50 unrelated: ${result.reports} reports, ${result.deliveries} deliveries; ` +
      `latency median ${round(l.p50)} ms p95 ${round(l.p95)} ms max ${round(l.max)} ms; server CPU ${round(cpu * 100, 0)}% of a core ` +
      `(the ${2 * n + 50} clients' process: ${round(clientCpu * 100, 0)}%)`,
  );
}
