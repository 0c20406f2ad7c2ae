/**
 * Memory a visitor decides the size of: distinct large arguments to `POST /api/query`, and large made-up
 * query journals subscribed over the sync socket and removed again (each on its own socket, closed
 * after). The backend's RSS (`/proc`) is sampled throughout: after a quiet spell it must be back within
 * 100 MB of where it started (nothing is held for the flood); at its peak, within 100 MB for the journals
 * and 200 MB for the arguments (two 5 MB calls at a time: their parsing and checking is transient
 * garbage the collector takes back after the flood, measured +175 MB at most).
 */
import { randomBytes } from "node:crypto";
import type { HostileBackend } from "./hostile-backend.ts";
import { closed, connectFrame, openSync } from "./hostile-sync.ts";

export type MemorySizes = {
  /** Distinct `/api/query` calls and the size of each one's argument. */
  queries: number;
  queryMb: number;
  /** Subscriptions with a made-up journal, and each journal's size. */
  journals: number;
  journalMb: number;
  /** How long the backend is left alone before its RSS is read again. */
  quietMs: number;
};

export type MemoryPhase = {
  name: string;
  peakLimitMb: number;
  baselineMb: number;
  peakMb: number;
  afterMb: number;
  failed: number;
};

export const RSS_GROWTH_MB = 100;

const mb = (bytes: number | null) => Math.round((bytes ?? 0) / 1024 / 1024);

async function measured(
  backend: HostileBackend,
  name: string,
  peakLimitMb: number,
  quietMs: number,
  flood: () => Promise<number>,
): Promise<MemoryPhase> {
  const baselineMb = mb(backend.rss());
  let peakMb = baselineMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, mb(backend.rss()))), 50);
  let failed: number;
  try {
    failed = await flood();
  } finally {
    clearInterval(sampler);
  }
  peakMb = Math.max(peakMb, mb(backend.rss()));
  // the heap gives memory back when the collector gets to it: wait for that, up to `quietMs`
  const until = Date.now() + quietMs;
  while (mb(backend.rss()) - baselineMb > RSS_GROWTH_MB && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 250));
  return { name, peakLimitMb, baselineMb, peakMb, afterMb: mb(backend.rss()), failed };
}

/** `count` distinct `catalog:search` calls of `sizeMb` MB each, two at a time; how many got no answer. */
async function queryFlood(url: string, count: number, sizeMb: number): Promise<number> {
  const filler = "x".repeat(sizeMb * 1024 * 1024);
  let failed = 0;
  const one = async (i: number) => {
    try {
      const res = await fetch(`${url}/api/query`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: `{"path":"catalog:search","args":{"text":"${i} ${randomBytes(8).toString("hex")} ${filler}"}}`,
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
    } catch {
      failed++;
    }
  };
  for (let i = 0; i < count; i += 2) await Promise.all([one(i), one(i + 1)]);
  return failed;
}

/** `count` sockets each subscribing with a distinct `sizeMb` MB journal, then removing it and closing. */
async function journalFlood(url: string, count: number, sizeMb: number): Promise<number> {
  const filler = "j".repeat(sizeMb * 1024 * 1024);
  let failed = 0;
  for (let i = 0; i < count; i++) {
    try {
      const ws = await openSync(url);
      const answered = new Promise<void>((resolve) => {
        ws.on("message", () => resolve());
        ws.once("close", () => resolve());
      });
      ws.send(connectFrame());
      const add = {
        type: "Add",
        queryId: 0,
        udfPath: "catalog:search",
        args: [{ text: "journal" }],
        journal: `${i}.${randomBytes(8).toString("hex")}${filler}`,
      };
      ws.send(
        JSON.stringify({
          type: "ModifyQuerySet",
          baseVersion: 0,
          newVersion: 1,
          modifications: [add],
        }),
      );
      await answered;
      if (ws.readyState === ws.OPEN)
        ws.send(
          JSON.stringify({
            type: "ModifyQuerySet",
            baseVersion: 1,
            newVersion: 2,
            modifications: [{ type: "Remove", queryId: 0 }],
          }),
        );
      ws.close();
      await closed(ws);
    } catch {
      failed++;
    }
  }
  return failed;
}

export async function runMemoryFloods(
  backend: HostileBackend,
  sizes: MemorySizes,
): Promise<{ phases: MemoryPhase[]; failures: string[] }> {
  const phases = [
    await measured(
      backend,
      `${sizes.queries} × ${sizes.queryMb} MB query arguments`,
      2 * RSS_GROWTH_MB,
      sizes.quietMs,
      () => queryFlood(backend.url, sizes.queries, sizes.queryMb),
    ),
    await measured(
      backend,
      `${sizes.journals} × ${sizes.journalMb} MB journals`,
      RSS_GROWTH_MB,
      sizes.quietMs,
      () => journalFlood(backend.url, sizes.journals, sizes.journalMb),
    ),
  ];
  const failures: string[] = [];
  for (const p of phases) {
    if (p.peakMb - p.baselineMb > p.peakLimitMb)
      failures.push(
        `${p.name}: RSS grew by ${p.peakMb - p.baselineMb} MB (at most ${p.peakLimitMb})`,
      );
    if (p.afterMb - p.baselineMb > RSS_GROWTH_MB)
      failures.push(`${p.name}: RSS stayed ${p.afterMb - p.baselineMb} MB up after the flood`);
  }
  if (!backend.alive()) failures.push("the backend died");
  return { phases, failures };
}

export const summarizeMemory = (phases: MemoryPhase[]) =>
  phases
    .map(
      (p) =>
        `${p.name}: RSS ${p.baselineMb} → peak ${p.peakMb} → ${p.afterMb} MB after the quiet spell`,
    )
    .join("; ");
