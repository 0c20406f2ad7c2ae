/**
 * Crash drill: a backend child process (local-backend/test/child-backend.ts) serving
 * drills/crash-convex is killed with SIGKILL at random moments while 4 clients write continuously;
 * after each restart every acknowledged write must be there, whole, and no write may be there by half.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import WebSocket from "ws";
import { startBackend } from "../../local-backend/server.ts";
import { rng } from "./fuzz.ts";
import { tempDir } from "./app-backend.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const crashConvexDir = path.join(here, "..", "crash-convex");
const childScript = path.join(here, "..", "..", "local-backend", "test", "child-backend.ts");
const childOnPortScript = path.join(here, "child-on-port.ts");

export const write = makeFunctionReference<"mutation", { client: string; key: string }, string>(
  "pairs:write",
);
export const dump = makeFunctionReference<
  "query",
  Record<string, never>,
  { firsts: string[]; seconds: string[]; counters: Record<string, number> }
>("pairs:dump");
export const count = makeFunctionReference<"query", { key: string }, number>("pairs:count");
export const total = makeFunctionReference<"query", Record<string, never>, number>("pairs:total");

export function newClient(url: string) {
  return new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
  });
}

/** A backend in this process serving drills/crash-convex (port 0: a free one). */
export const startCrashBackend = (dataDir: string, port = 0) =>
  startBackend({ port, sitePort: 0, dataDir, convexDir: crashConvexDir });

/**
 * `clients` each write keys `<prefix><i>-s<seq>` one after another until `finish`; the keys they have
 * an answer for are in `acked`.
 */
export function startWriters(clients: ConvexClient[], prefix: string) {
  const acked = new Set<string>();
  let stopped = false;
  const ackWaiters = new Set<() => void>();
  const loops = clients.map(async (client, i) => {
    for (let seq = 0; !stopped; seq++) {
      const key = `${prefix}${i}-s${seq}`;
      await client.mutation(write, { client: `${prefix}${i}`, key });
      acked.add(key);
      for (const wake of ackWaiters) wake();
      ackWaiters.clear();
    }
  });
  return {
    acked,
    /** Resolves with the next acknowledgement. */
    nextAck: () => new Promise<void>((resolve) => ackWaiters.add(resolve)),
    /** Lets every writer finish its current mutation; rejects with `stuck()` after 30 s. */
    finish(stuck: () => string): Promise<unknown> {
      stopped = true;
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        Promise.all(loops),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(stuck())), 30_000);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    stop() {
      stopped = true;
    },
  };
}

/** How often each key was written, and the keys written more than once (`key×n`). */
export function timesWritten(firsts: string[]) {
  const times = new Map<string, number>();
  for (const k of firsts) times.set(k, (times.get(k) ?? 0) + 1);
  const duplicates = [...times].filter(([, n]) => n > 1).map(([k, n]) => `${k}×${n}`);
  return { times, duplicates };
}

export type Child = { process: ChildProcess; url: string; exited: Promise<void> };

/** Starts the child backend on `dataDir` and resolves once it prints its URLs. */
export function startChild(
  dataDir: string,
  convexDir = crashConvexDir,
  port?: number,
): Promise<Child> {
  const script =
    port === undefined
      ? [childScript, dataDir, convexDir]
      : [childOnPortScript, dataDir, convexDir, String(port)];
  const child = spawn(process.execPath, ["--import", "tsx", ...script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ process: child, url: (JSON.parse(line) as { url: string }).url, exited });
    });
    child.once("exit", (code) =>
      reject(new Error(`child backend exited with ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

export type CrashReport = {
  rounds: number;
  acknowledged: number;
  found: number;
  /** Sent but not acknowledged before the kill; found whole afterwards (allowed) or absent. */
  unacknowledgedApplied: number;
  unacknowledgedAbsent: number;
  halfApplied: number;
  counterMismatches: number;
  failures: string[];
};

/**
 * `rounds` kills at random points `minMs`–`maxMs` after each round's first acknowledged write. Every round verifies the
 * whole history so far (so a later crash that loses earlier writes is caught too).
 */
export async function runCrashDrill(options: {
  rounds: number;
  minMs?: number;
  maxMs?: number;
  seed?: number;
  writers?: number;
}) {
  const { rounds, minMs = 0, maxMs = 500, seed = 3, writers = 4 } = options;
  const r = rng(seed);
  const dataDir = tempDir("gharsewa-crash-");
  const report: CrashReport = {
    rounds: 0,
    acknowledged: 0,
    found: 0,
    unacknowledgedApplied: 0,
    unacknowledgedAbsent: 0,
    halfApplied: 0,
    counterMismatches: 0,
    failures: [],
  };
  const acked = new Set<string>();
  const pending = new Set<string>(); // sent, no answer before the kill
  let child = await startChild(dataDir);
  try {
    for (let round = 0; round < rounds; round++) {
      const clients = Array.from({ length: writers }, () => newClient(child.url));
      let stop = false;
      let firstAck!: () => void;
      const acknowledged = new Promise<void>((resolve) => (firstAck = resolve));
      const loops = clients.map(async (client, i) => {
        for (let seq = 0; !stop; seq++) {
          const key = `c${i}-r${round}-s${seq}`;
          pending.add(key);
          try {
            await client.mutation(write, { client: `c${i}`, key });
          } catch {
            return; // closed under it
          }
          if (stop) return; // answered after the kill was decided: leave it unacknowledged
          pending.delete(key);
          acked.add(key);
          firstAck();
        }
      });
      // Kill at a random point once the writers are under way (after the round's first acknowledgement).
      await Promise.race([acknowledged, child.exited]);
      const delay = minMs + r.int(maxMs - minMs);
      await new Promise((resolve) => setTimeout(resolve, delay));
      stop = true;
      child.process.kill("SIGKILL");
      await child.exited;
      for (const c of clients) void c.close();
      await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, 200))]);

      child = await startChild(dataDir);
      report.rounds++;
      const state = await new ConvexHttpClient(child.url, { logger: false }).query(dump, {});
      const firsts = new Set(state.firsts);
      const seconds = new Set(state.seconds);
      const whole = [...firsts].filter((k) => seconds.has(k));
      const halves = [...firsts]
        .filter((k) => !seconds.has(k))
        .concat([...seconds].filter((k) => !firsts.has(k)));
      if (halves.length > 0)
        report.failures.push(
          `round ${round}: half-applied writes ${halves.slice(0, 5).join(", ")}`,
        );
      const missing = [...acked].filter((k) => !firsts.has(k) || !seconds.has(k));
      if (missing.length > 0)
        report.failures.push(
          `round ${round}: ${missing.length} acknowledged writes missing, e.g. ${missing.slice(0, 5).join(", ")}`,
        );
      for (let i = 0; i < writers; i++) {
        const mine = whole.filter((k) => k.startsWith(`c${i}-`)).length;
        const counter = state.counters[`c${i}`] ?? 0;
        if (counter !== mine)
          report.failures.push(
            `round ${round}: counter c${i} = ${counter} but ${mine} whole writes`,
          );
      }
      report.halfApplied = halves.length;
      report.counterMismatches = Object.keys(state.counters).filter(
        (c) => state.counters[c] !== whole.filter((k) => k.startsWith(`${c}-`)).length,
      ).length;
      report.acknowledged = acked.size;
      report.found = [...acked].filter((k) => firsts.has(k) && seconds.has(k)).length;
      const unackedApplied = [...pending].filter((k) => firsts.has(k)).length;
      report.unacknowledgedApplied = unackedApplied;
      report.unacknowledgedAbsent = pending.size - unackedApplied;
    }
  } finally {
    child.process.kill("SIGKILL");
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

export function summarizeCrash(report: CrashReport): string {
  return (
    `${report.rounds} kill -9s: ${report.acknowledged} writes acknowledged / ${report.found} found; ` +
    `${report.unacknowledgedApplied} unacknowledged found whole, ${report.unacknowledgedAbsent} absent; ` +
    `${report.halfApplied} half-applied, ${report.counterMismatches} counter mismatches`
  );
}

export type CrashReconnectReport = {
  kills: number;
  acknowledged: number;
  found: number;
  /** Keys written more than once: a mutation committed before the kill and resent by the reconnecting client. */
  duplicated: number;
  halfApplied: number;
  failures: string[];
};

/**
 * Crash with reconnection: the same 4 clients stay connected across `kills` kill -9s of a child that
 * restarts on the same port, so a mutation cut off by the kill is resent by its client after the
 * restart. Every acknowledged write must be found once — a write committed before the kill and then
 * resent must not be applied twice — and nothing by half.
 */
export async function runCrashReconnectDrill(options: {
  kills: number;
  maxMs?: number;
  seed?: number;
  writers?: number;
}) {
  const { kills, maxMs = 400, seed = 5, writers = 4 } = options;
  const r = rng(seed);
  const dataDir = tempDir("gharsewa-crash-reconnect-");
  const report: CrashReconnectReport = {
    kills: 0,
    acknowledged: 0,
    found: 0,
    duplicated: 0,
    halfApplied: 0,
    failures: [],
  };
  let child = await startChild(dataDir);
  const port = Number(new URL(child.url).port);
  child.process.kill("SIGKILL");
  await child.exited;
  child = await startChild(dataDir, crashConvexDir, port);
  const clients = Array.from({ length: writers }, () => newClient(child.url));
  const writing = startWriters(clients, "c");
  try {
    for (let k = 0; k < kills; k++) {
      await writing.nextAck();
      await new Promise((resolve) => setTimeout(resolve, r.int(maxMs)));
      child.process.kill("SIGKILL");
      await child.exited;
      report.kills++;
      child = await startChild(dataDir, crashConvexDir, port);
    }
    // let every writer finish its current mutation on the last backend
    await writing.finish(() => {
      const states = clients.map((c) => JSON.stringify(c.connectionState()));
      return `writers did not finish after the last restart: ${states.join("; ")}`;
    });
    const { acked } = writing;
    const state = await new ConvexHttpClient(child.url, { logger: false }).query(dump, {});
    const { times, duplicates } = timesWritten(state.firsts);
    const seconds = new Set(state.seconds);
    const halves = state.firsts.filter((k) => !seconds.has(k));
    report.acknowledged = acked.size;
    report.found = [...acked].filter((k) => times.has(k) && seconds.has(k)).length;
    report.duplicated = duplicates.length;
    report.halfApplied = halves.length + Math.max(0, state.seconds.length - state.firsts.length);
    if (duplicates.length > 0)
      report.failures.push(
        `${duplicates.length} writes applied more than once (resent after the kill), e.g. ${duplicates.slice(0, 5).join(", ")}`,
      );
    if (report.found !== report.acknowledged)
      report.failures.push(`${report.acknowledged - report.found} acknowledged writes missing`);
    if (halves.length > 0) report.failures.push(`half-applied: ${halves.slice(0, 5).join(", ")}`);
  } catch (error) {
    report.failures.push((error as Error).message);
  } finally {
    writing.stop();
    for (const c of clients) void c.close();
    child.process.kill("SIGKILL");
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

export function summarizeCrashReconnect(report: CrashReconnectReport): string {
  return (
    `${report.kills} kill -9s with clients reconnecting: ${report.acknowledged} writes acknowledged / ${report.found} found; ` +
    `${report.duplicated} applied twice, ${report.halfApplied} half-applied`
  );
}
