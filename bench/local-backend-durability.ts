/**
 * Durable write throughput of the local backend (acknowledged mutations per second, each
 * fsynced before its response) and restart time with 100k documents.
 * Run: npx tsx bench/local-backend-durability.ts
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import WebSocket from "ws";
import { startBackend } from "../local-backend/server";
import { fixtureConvexDir } from "../local-backend/test/helpers";
import { round } from "./lib/stats";

const DOCS = Number(process.env.DOCS ?? 100_000);
const dataDir = mkdtempSync(path.join(tmpdir(), "bench-durability-"));
let backend = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir: fixtureConvexDir });

const clients = Array.from({ length: 8 }, () => new ConvexClient(backend.url, { webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket }));
for (const inFlight of [1, 64]) {
  const total = inFlight === 1 ? 1000 : 5000;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async (_, w) => {
      while (next < total) {
        next++;
        await clients[w % clients.length].mutation(anyApi.messages.send, { channel: `w${w}`, body: "x" });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  console.log(`durable mutations, ${inFlight} in flight: ${Math.round(total / seconds)} acknowledged/s`);
}
await Promise.all(clients.map((c) => c.close()));

// Bulk-load to DOCS documents in large transactions, then measure a restart (log replay),
// and a restart after compaction (snapshot load).
const batch = 1000;
const t1 = performance.now();
for (let i = 0; i < DOCS; i += batch) {
  await backend.engine.t.run(async (ctx: { db: { insert(t: string, v: unknown): Promise<unknown> } }) => {
    for (let j = 0; j < batch; j++) await ctx.db.insert("messages", { channel: `c${(i + j) % 100}`, body: `message ${i + j}` });
  });
}
console.log(`loaded ${DOCS} documents in ${round((performance.now() - t1) / 1000)} s`);
await backend.close();
let t = performance.now();
backend = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir: fixtureConvexDir });
console.log(`restart from the log: ${round(performance.now() - t)} ms`);
backend.compact();
await backend.close();
t = performance.now();
backend = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir: fixtureConvexDir });
console.log(`restart from a snapshot: ${round(performance.now() - t)} ms`);
t = performance.now();
await backend.engine.call("query", "messages:list", { channel: "c7" }, { identity: null });
console.log(`indexed query (.eq on the first index field, 1% of ${DOCS} documents match): ${round(performance.now() - t)} ms`);
await backend.close();
