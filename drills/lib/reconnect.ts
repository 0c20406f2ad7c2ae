/**
 * Reconnect drill: a backend (in this process, drills/crash-convex) is stopped and restarted on the same
 * port under a connected ConvexClient. The client must reconnect by itself, its subscription must
 * resume, and a mutation called during the outage must be applied exactly once.
 */
import { rmSync } from "node:fs";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../../local-backend/server.ts";
import { tempDir } from "./app-backend.ts";
import { count, newClient, startCrashBackend, total, write } from "./crash.ts";

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

export const emptyReconnectReport = (): ReconnectReport => ({
  outages: 0,
  exactlyOnce: 0,
  resumed: 0,
  reconnectMs: [],
  failures: [],
});

/** What a drill's subscribed client does across one outage. */
export interface OutageClient {
  /** Starts the write `key` while the backend is down; the function returned waits for its answer. */
  startWrite(key: string): Promise<() => Promise<unknown>>;
  /** Resolves once the subscription shows `value`; `what` names the wait in a timeout. */
  shows(value: number, what: string): Promise<unknown>;
  /** Checked after each outage: a failure to report, or null. */
  check?(expected: number): Promise<string | null>;
}

/**
 * `outages` times: stops the backend, starts a write while it is down, restarts it on the same port and
 * checks that the write is answered and applied once and that the subscription resumes (it shows the write,
 * then another client's write made after the restart). Returns the backend running at the end.
 */
export async function runOutages(options: {
  backend: Backend;
  dataDir: string;
  outages: number;
  downMs: number;
  /** What the subscription shows before the first outage. */
  shown: number;
  /** Names the keys ("<prefix>outage-<i>") and the failures. */
  prefix: "" | "browser-";
  client: OutageClient;
  report: ReconnectReport;
}): Promise<Backend> {
  const { dataDir, downMs, prefix, client, report } = options;
  let { backend, shown: expected } = options;
  const port = Number(new URL(backend.url).port);
  const label = prefix.replace("-", " ");
  for (let i = 0; i < options.outages; i++) {
    await backend.close();
    await new Promise((resolve) => setTimeout(resolve, downMs)); // the client sees the socket drop and retries
    const key = `${prefix}outage-${i}`;
    const answered = await client.startWrite(key);
    backend = await startCrashBackend(dataDir, port);
    const restarted = Date.now();
    report.outages++;
    try {
      await answered();
      report.reconnectMs.push(Date.now() - restarted);
      await client.shows(++expected, `the subscription to show outage ${i}'s write`);
      // another client writes after the restart: the resumed subscription must see it
      await new ConvexHttpClient(backend.url, { logger: false }).mutation(write, {
        client: "other",
        key: `${prefix}after-${i}`,
      });
      await client.shows(++expected, `the subscription to show a write after restart ${i}`);
      report.resumed++;
      const times = await new ConvexHttpClient(backend.url, { logger: false }).query(count, {
        key,
      });
      if (times === 1) report.exactlyOnce++;
      else
        report.failures.push(
          `${label}outage ${i}: the mutation made during the outage was applied ${times} times`,
        );
      const failure = await client.check?.(expected);
      if (failure) report.failures.push(`${label}outage ${i}: ${failure}`);
    } catch (error) {
      report.failures.push(`${label}outage ${i}: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  return backend;
}

export async function runReconnectDrill(options: {
  outages: number;
  downMs?: number;
}): Promise<ReconnectReport> {
  const { outages, downMs = 300 } = options;
  const dataDir = tempDir("gharsewa-reconnect-");
  const report = emptyReconnectReport();
  let backend: Backend = await startCrashBackend(dataDir);
  const client = newClient(backend.url);
  const values: number[] = [];
  const listeners: (() => void)[] = [];
  const unsubscribe = client.onUpdate(total, {}, (v) => {
    values.push(v);
    for (const l of [...listeners]) l();
  });
  const shows = (value: number, what: string) =>
    within(
      waitFor(values, (v) => v === value, listeners),
      10_000,
      what,
    );
  try {
    await within(client.mutation(write, { client: "r", key: "before" }), 10_000, "the first write");
    await shows(1, "the subscription's first value");
    backend = await runOutages({
      backend,
      dataDir,
      outages,
      downMs,
      shown: 1,
      prefix: "",
      report,
      client: {
        startWrite: async (key) => {
          const during = client.mutation(write, { client: "r", key });
          return () => within(during, 30_000, `the mutation made during ${key}`);
        },
        shows,
      },
    });
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
