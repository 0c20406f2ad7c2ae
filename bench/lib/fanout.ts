/**
 * The fan-out load generator shared by every target (the local backend running the real app
 * functions, and the Socket.IO peer): N professionals report a position every `intervalMs`
 * (random phase) while N customers watch their city. Each report moves its professional by one
 * public-grid step (0.005°), so the position a watcher sees identifies the report even where the
 * app rounds positions for customers; latency = report sent → that watcher's callback.
 * Before the measured window every professional reports a starting position, then the watchers
 * open their maps (loading what is on them, where the target has state to load), then the load runs
 * for `warmupMs`: the figures are of moving professionals who are on the map, not of professionals
 * coming online or of code the JIT has not compiled yet.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { CITIES } from "../../convex/validators";
import type { StageSummary } from "../../local-backend/stage-trace";
import { cpuSeconds } from "./cpu";
import { summarize, type Summary } from "./stats";

export interface FanoutTarget {
  /** Backend process, for its CPU time. */
  pid: number;
  /**
   * Subscribe to a city's markers; call `seen(index, lat, arrivedAt?)` for every marker whose latitude
   * changed (`arrivedAt`: when the frame that carried it reached this process, Unix ms, if known).
   * Resolves once the markers already on the map have arrived.
   */
  watch(
    city: string,
    seen: (index: string, lat: number, arrivedAt?: number) => void,
  ): Promise<void>;
  /** Per-stage timestamps of the backend, when it records them: reset, or the summary so far. */
  stages?(reset: boolean): Promise<StageSummary | undefined>;
  /** Connect professional `index` (in `city`); returns a function that reports one position. */
  reporter(index: number, city: string): Promise<(lat: number, lng: number) => Promise<void>>;
  close(): Promise<void>;
}

export type FanoutResult = {
  clients: number;
  reports: number;
  failedReports: number;
  /** Deliveries expected (reports × watchers of the city) and observed. */
  expected: number;
  deliveries: number;
  latency: Summary;
  /** Backend CPU during the load, in cores (1 = one core busy). */
  serverCpu: number;
  /** Backend CPU time per delivery (µs): its CPU seconds in the window over the deliveries counted. */
  serverCpuPerDeliveryUs: number;
  /** CPU of this process (all the simulated clients), in cores. */
  clientCpu: number;
  /** With stage tracing: the backend's stages and this process's (ms). */
  stages?: StageSummary;
};

const GRID = 0.005;
/** The n-th position of a professional: on the public grid, so rounding for customers keeps it exact. */
export const gridLat = (base: number, n: number) =>
  Number(((Math.round(base / GRID) + (n % 400)) * GRID).toFixed(6));

export async function runFanout(
  target: FanoutTarget,
  clients: number,
  { durationMs = 20_000, intervalMs = 5_000, warmupMs = 5_000 } = {},
): Promise<FanoutResult> {
  const sentAt = new Map<string, number>(); // `${index}:${lat}` → send time
  const watchersPerCity = new Map<string, number>();
  const latencies: number[] = [];
  const toFrame: number[] = [];
  const toCallback: number[] = [];
  const answeredIn: number[] = [];
  const epoch = (t: number) => performance.timeOrigin + t;
  const cityOf = (i: number) => CITIES[i % CITIES.length];

  const reporters = [];
  for (let i = 0; i < clients; i++) reporters.push(await target.reporter(i, cityOf(i).slug));
  await Promise.all(
    reporters.map((report, i) => report(gridLat(cityOf(i).lat, 0), cityOf(i).lng + 0.01)),
  );
  for (let i = 0; i < clients; i++) {
    const city = cityOf(i).slug;
    watchersPerCity.set(city, (watchersPerCity.get(city) ?? 0) + 1);
    await target.watch(city, (id, lat, arrivedAt) => {
      const t0 = sentAt.get(`${id}:${lat}`);
      if (t0 === undefined) return;
      const now = performance.now();
      latencies.push(now - t0);
      if (arrivedAt === undefined) return;
      toFrame.push(arrivedAt - epoch(t0));
      toCallback.push(epoch(now) - arrivedAt);
    });
  }
  // phones write at most once a second (locations:update refuses sooner writes)
  await new Promise((r) => setTimeout(r, 1_000));

  let reports = 0;
  let failedReports = 0;
  let answered = 0;
  let expected = 0;
  const timers: NodeJS.Timeout[] = [];
  const pending: Promise<void>[] = [];
  // The same load runs for warmupMs before the window: its figures are of a process whose code the
  // JIT has compiled by then (each target's, alike), not of its first seconds.
  const t0 = performance.now() + warmupMs;
  const until = t0 + durationMs;
  reporters.forEach((report, i) => {
    const city = cityOf(i);
    let n = 0;
    const tick = () => {
      const sent = performance.now();
      if (sent > until) return;
      const lat = gridLat(city.lat, ++n);
      timers.push(setTimeout(tick, intervalMs));
      if (sent < t0) {
        report(lat, city.lng + 0.01).catch(() => {});
        return;
      }
      sentAt.set(`${i}:${lat}`, sent);
      reports++;
      expected += watchersPerCity.get(city.slug) ?? 0;
      pending.push(
        report(lat, city.lng + 0.01).then(
          () => {
            answered++;
            answeredIn.push(performance.now() - sent);
          },
          () => void failedReports++,
        ),
      );
    };
    timers.push(setTimeout(tick, Math.random() * intervalMs));
  });
  await new Promise((r) => setTimeout(r, t0 - performance.now()));
  await target.stages?.(true);
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const cpu0 = cpuSeconds(target.pid);
  const clientCpu0 = process.cpuUsage();
  const measuredFrom = performance.now();
  await new Promise((r) => setTimeout(r, durationMs + 2_000));
  timers.forEach(clearTimeout);
  // a report still unanswered 30 s after the window (a client that lost its connection) counts as failed
  await Promise.race([Promise.allSettled(pending), new Promise((r) => setTimeout(r, 30_000))]);
  failedReports = reports - answered;
  const elapsed = (performance.now() - measuredFrom) / 1000;
  const serverCpu = (cpuSeconds(target.pid) - cpu0) / elapsed;
  const used = process.cpuUsage(clientCpu0);
  loopDelay.disable();
  const backendStages = await target.stages?.(false);
  const stages: StageSummary | undefined = backendStages && {
    ...backendStages,
    ...clientStage("clients: report sent → mutation answered", answeredIn),
    ...clientStage("clients: report sent → frame arrived", toFrame),
    ...clientStage("clients: frame arrived → callback", toCallback),
    ...clientStage("clients: report sent → callback (total)", latencies),
    "clients: event loop delay": {
      n: loopDelay.count,
      p50: loopDelay.percentile(50) / 1e6,
      p95: loopDelay.percentile(95) / 1e6,
      p99: loopDelay.percentile(99) / 1e6,
    },
  };
  return {
    clients,
    reports,
    failedReports,
    expected,
    deliveries: latencies.length,
    latency: summarize(latencies),
    serverCpu,
    serverCpuPerDeliveryUs:
      latencies.length === 0 ? 0 : ((serverCpu * elapsed) / latencies.length) * 1e6,
    clientCpu: (used.user + used.system) / 1e6 / elapsed,
    ...(stages ? { stages } : {}),
  };
}

function clientStage(stage: string, samples: number[]): StageSummary {
  if (samples.length === 0) return {};
  const { n, p50, p95, p99 } = summarize(samples);
  return { [stage]: { n, p50, p95, p99 } };
}
