/**
 * Durable write throughput of the local backend (acknowledged mutations per second, each fsynced
 * before its answer) and restart time with `docs` documents (log replay, then snapshot load, then a fresh
 * process from the snapshot: its time and memory per document).
 * In-process (restart time is measured around startBackend itself); fixture functions.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import WebSocket from "ws";
import { startBackend } from "../../local-backend/server";
import { FIXTURE_CONVEX_DIR } from "../lib/backend";

export type DurabilityResult = {
  writesPerSecond: { inFlight: number; perSecond: number }[];
  docs: number;
  restartFromLogMs: number;
  restartFromSnapshotMs: number;
  /** A fresh process started on the data directory (from the snapshot): time, and memory above an empty one's. */
  restart: { ms: number; rssBytes: number; emptyRssBytes: number; rssPerDocBytes: number };
};

type Started = { startMs: number; rss: number; heapUsed: number };

/** Starts a backend on `dataDir` in a process of its own (bench/lib/restart-child.ts). */
function startInChild(dataDir: string): Promise<Started> {
  const child = fork(
    path.join(import.meta.dirname, "../lib/restart-child.ts"),
    [dataDir, FIXTURE_CONVEX_DIR],
    {
      execArgv: ["--import", "tsx", "--expose-gc"],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve(m as Started));
    child.once("exit", (code) => reject(new Error(`restart child exited with ${code}`)));
  });
}

export async function durability({ docs = 1_000_000 } = {}): Promise<DurabilityResult> {
  // The backend runs in this process: keep the fixture functions' log lines off the report.
  const saved = { log: console.log, info: console.info };
  console.log = console.info = () => {};
  try {
    return await measure(docs);
  } finally {
    Object.assign(console, saved);
  }
}

async function measure(docs: number): Promise<DurabilityResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gharsewa-bench-durability-"));
  const start = () =>
    startBackend({ port: 0, sitePort: 0, dataDir, convexDir: FIXTURE_CONVEX_DIR });
  let backend = await start();
  const ws = WebSocket as unknown as typeof globalThis.WebSocket;
  const clients = Array.from(
    { length: 8 },
    () => new ConvexClient(backend.url, { webSocketConstructor: ws, unsavedChangesWarning: false }),
  );
  const writesPerSecond = [];
  for (const inFlight of [1, 64]) {
    const total = inFlight === 1 ? 500 : 3000;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async (_, w) => {
        while (next < total) {
          next++;
          await clients[w % clients.length].mutation(anyApi.messages.send, {
            channel: `w${w}`,
            body: "x",
          });
        }
      }),
    );
    writesPerSecond.push({ inFlight, perSecond: total / ((performance.now() - t0) / 1000) });
  }
  await Promise.all(clients.map((c) => c.close()));

  const emptyDir = mkdtempSync(path.join(tmpdir(), "gharsewa-bench-durability-empty-"));
  const empty = await startInChild(emptyDir);
  rmSync(emptyDir, { recursive: true, force: true });

  const batch = 1000;
  for (let i = 0; i < docs; i += batch) {
    await backend.engine.t.run(
      async (ctx: { db: { insert(t: string, v: unknown): Promise<unknown> } }) => {
        for (let j = 0; j < batch; j++)
          await ctx.db.insert("messages", {
            channel: `c${(i + j) % 100}`,
            body: `message ${i + j}`,
          });
      },
    );
  }
  await backend.close();
  let t = performance.now();
  backend = await start();
  const restartFromLogMs = performance.now() - t;
  backend.compact();
  await backend.close();
  t = performance.now();
  backend = await start();
  const restartFromSnapshotMs = performance.now() - t;
  await backend.close();
  const fresh = await startInChild(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  return {
    writesPerSecond,
    docs,
    restartFromLogMs,
    restartFromSnapshotMs,
    restart: {
      ms: fresh.startMs,
      rssBytes: fresh.rss,
      emptyRssBytes: empty.rss,
      rssPerDocBytes: (fresh.rss - empty.rss) / docs,
    },
  };
}
