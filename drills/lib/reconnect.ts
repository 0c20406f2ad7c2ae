/**
 * Reconnect drill: a backend (in this process, drills/crash-convex) is stopped and restarted on the same
 * port under a connected ConvexClient. The client must reconnect by itself, its subscription must
 * resume, and a mutation called during the outage must be applied exactly once.
 */
import { rmSync } from "node:fs";
import { ConvexHttpClient } from "convex/browser";
import { startBackend, type Backend } from "../../local-backend/server.ts";
import { tempDir } from "./app-backend.ts";
import { count, crashConvexDir, newClient, total, write } from "./crash.ts";

export type ReconnectReport = {
  outages: number;
  /** Outage mutations applied exactly once. */
  exactlyOnce: number;
  /** Subscriptions that showed the outage write and then a write made by another client after the restart. */
  resumed: number;
  /** Milliseconds from restart to the outage mutation's acknowledgement. */
  reconnectMs: number[];
  failures: string[];
};

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)),
      ms,
    );
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

/** Resolves when `seen` (a subscription's values) gets one that `ok` accepts. */
function waitFor(
  values: number[],
  ok: (v: number) => boolean,
  listeners: (() => void)[],
): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (values.some(ok)) {
        listeners.splice(listeners.indexOf(check), 1);
        resolve();
      }
    };
    listeners.push(check);
    check();
  });
}

export async function runReconnectDrill(options: {
  outages: number;
  downMs?: number;
}): Promise<ReconnectReport> {
  const { outages, downMs = 300 } = options;
  const dataDir = tempDir("gharsewa-reconnect-");
  const report: ReconnectReport = {
    outages: 0,
    exactlyOnce: 0,
    resumed: 0,
    reconnectMs: [],
    failures: [],
  };
  let backend: Backend = await startBackend({
    port: 0,
    sitePort: 0,
    dataDir,
    convexDir: crashConvexDir,
  });
  const port = Number(new URL(backend.url).port);
  const client = newClient(backend.url);
  const values: number[] = [];
  const listeners: (() => void)[] = [];
  const unsubscribe = client.onUpdate(total, {}, (v) => {
    values.push(v);
    for (const l of [...listeners]) l();
  });
  try {
    await within(client.mutation(write, { client: "r", key: "before" }), 10_000, "the first write");
    await within(
      waitFor(values, (v) => v === 1, listeners),
      10_000,
      "the subscription's first value",
    );
    let expected = 1;
    for (let i = 0; i < outages; i++) {
      await backend.close();
      await new Promise((resolve) => setTimeout(resolve, downMs)); // the client sees the socket drop and retries
      const key = `outage-${i}`;
      const during = client.mutation(write, { client: "r", key });
      backend = await startBackend({ port, sitePort: 0, dataDir, convexDir: crashConvexDir });
      const restarted = Date.now();
      report.outages++;
      try {
        await within(during, 30_000, `the mutation made during outage ${i}`);
        report.reconnectMs.push(Date.now() - restarted);
        expected++;
        await within(
          waitFor(values, (v) => v === expected, listeners),
          10_000,
          `the subscription to show outage ${i}'s write`,
        );
        // another client writes after the restart: the resumed subscription must see it
        await new ConvexHttpClient(backend.url, { logger: false }).mutation(write, {
          client: "other",
          key: `after-${i}`,
        });
        expected++;
        await within(
          waitFor(values, (v) => v === expected, listeners),
          10_000,
          `the subscription to show a write after restart ${i}`,
        );
        report.resumed++;
        const times = await new ConvexHttpClient(backend.url, { logger: false }).query(count, {
          key,
        });
        if (times === 1) report.exactlyOnce++;
        else
          report.failures.push(
            `outage ${i}: the mutation made during the outage was applied ${times} times`,
          );
      } catch (error) {
        report.failures.push(`outage ${i}: ${(error as Error).message}`);
      }
    }
  } finally {
    unsubscribe();
    await client.close();
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

export function summarizeReconnect(report: ReconnectReport): string {
  const sorted = [...report.reconnectMs].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
  return (
    `${report.outages} outages: reconnected and resumed ${report.resumed}, outage mutation applied exactly once ${report.exactlyOnce}; ` +
    `restart → acknowledgement median ${median} ms, max ${sorted.at(-1) ?? NaN} ms`
  );
}
