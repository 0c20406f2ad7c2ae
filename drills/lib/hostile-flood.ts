/**
 * Part 2 of the hostile drill: subscription floods while a signed-in canary client starts a query
 * (fresh arguments, so no cache answers it) or a mutation every 50 ms. One attacker socket sends
 * thousands of distinct subscriptions as fast as it can and reads the answers; another sends more and
 * disconnects at once (work for a closed socket must stop). The canary's latencies during the floods
 * and for a few seconds after them are what the part reports.
 */
import { makeFunctionReference } from "convex/server";
import { catalogSearch, signedInClient, within, type HostileBackend } from "./hostile-backend.ts";
import {
  addFrame,
  closed,
  connectFrame,
  onServerMessages,
  openSync,
  type Query,
} from "./hostile-sync.ts";

const heartbeat = makeFunctionReference<"mutation", Record<string, never>, null>(
  "presence:heartbeat",
);

export type FloodReport = {
  /** Subscriptions each attacker sent, and how its socket ended. */
  attacks: string[];
  baselineP99: number;
  canaryOps: number;
  p99: number;
  max: number;
  failures: string[];
};

const FRAME = 1000;

/** The value below which a fraction `p` of `values` lies (nearest rank); 0 for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

/** Distinct subscriptions: a professionals search near a different point each (real index work). */
const distinct = (offset: number, n: number): Query[] =>
  Array.from({ length: n }, (_, i) => ({
    udfPath: "professionals:search",
    args: {
      specialty: "electrician",
      city: "nepalgunj",
      near: { lat: 28 + (offset + i) * 1e-6, lng: 81.6 },
    },
  }));

/** Sends `count` subscriptions in frames of 1,000 without waiting; resolves how the socket ended. */
async function flood(
  url: string,
  offset: number,
  count: number,
  disconnectAtOnce: boolean,
  giveUpMs: number,
): Promise<string> {
  const ws = await openSync(url);
  const frames = Math.ceil(count / FRAME);
  let answered = 0;
  let fatal = "";
  onServerMessages(ws, (m) => {
    if (m.type === "Transition" && (m.endVersion?.querySet ?? 0) > 0) answered += 1;
    if (m.type === "FatalError") fatal = m.error ?? "";
  });
  ws.send(connectFrame());
  const sent = new Promise<void>((resolve) => {
    for (let f = 0; f < frames; f++) {
      const n = Math.min(FRAME, count - f * FRAME);
      const frame = addFrame(f, offset + f * FRAME, distinct(offset + f * FRAME, n));
      ws.send(frame, f === frames - 1 ? () => resolve() : undefined);
    }
  });
  if (disconnectAtOnce) {
    await sent;
    ws.terminate();
    return `${count} sent, disconnected at once`;
  }
  const started = Date.now();
  while (answered < frames && ws.readyState === ws.OPEN && Date.now() - started < giveUpMs)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const how =
    ws.readyState !== ws.OPEN
      ? `closed by the server after ${seconds} s${fatal ? ` (${fatal.slice(0, 80)})` : ""}`
      : answered === frames
        ? `all answered in ${seconds} s`
        : `${answered} of ${frames} frames answered after ${seconds} s`;
  ws.terminate();
  await closed(ws);
  return `${count} sent, ${how}`;
}

export async function runSubscriptionFlood(
  backend: HostileBackend,
  options: {
    token: string;
    subscriptions: number[];
    tailMs?: number;
    intervalMs?: number;
    timeoutMs?: number;
  },
): Promise<FloodReport> {
  const { tailMs = 5000, intervalMs = 50, timeoutMs = 30_000 } = options;
  const canary = signedInClient(backend.url, options.token);
  const report: FloodReport = {
    attacks: [],
    baselineP99: 0,
    canaryOps: 0,
    p99: 0,
    max: 0,
    failures: [],
  };
  // The canary starts an operation every `intervalMs` whether or not the last one was answered, as
  // users keep clicking: a stall then delays every operation started during it, not just one.
  let phase: "baseline" | "flood" = "baseline";
  const latencies = { baseline: [] as number[], flood: [] as number[] };
  const pending: Promise<void>[] = [];
  let n = 0;
  const tick = () => {
    const i = n++;
    const measured = phase;
    const started = Date.now();
    const op =
      i % 2 === 0
        ? canary.query(catalogSearch, { text: `flood canary ${i}` })
        : canary.mutation(heartbeat, {});
    pending.push(
      within(op, timeoutMs, "canary").then(
        () => void latencies[measured].push(Date.now() - started),
        (error: Error) => {
          latencies[measured].push(Date.now() - started);
          if (report.failures.length < 10) report.failures.push(`canary op ${i}: ${error.message}`);
        },
      ),
    );
  };
  const ticker = setInterval(tick, intervalMs);
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    phase = "flood";
    let offset = 0;
    for (const [i, count] of options.subscriptions.entries()) {
      const atOnce = i % 2 === 1;
      report.attacks.push(await flood(backend.url, offset, count, atOnce, 60_000));
      offset += count;
      // After an attacker leaves, its leftover work must not hold the canary up either.
      await new Promise((resolve) => setTimeout(resolve, tailMs));
    }
  } finally {
    clearInterval(ticker);
    await Promise.all(pending);
    await canary.close();
  }
  report.baselineP99 = percentile(latencies.baseline, 0.99);
  report.canaryOps = latencies.flood.length;
  report.p99 = percentile(latencies.flood, 0.99);
  report.max = Math.max(0, ...latencies.flood);
  return report;
}

export const summarizeFlood = (r: FloodReport) =>
  `canary p99 ${r.p99} ms, max ${r.max} ms over ${r.canaryOps} queries and mutations during the floods (${r.baselineP99} ms before); ${r.attacks.join("; ")}`;
