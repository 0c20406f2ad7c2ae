/**
 * The fan-out load generator shared by every target (the local backend running the real app
 * functions, and the Socket.IO peer): N professionals report a position every `intervalMs`
 * (random phase) while N customers watch their city. Each report moves its professional by one
 * public-grid step (0.005°), so the position a watcher sees identifies the report even where the
 * app rounds positions for customers; latency = report sent → that watcher's callback.
 * Before the measured window every professional reports a starting position, then the watchers
 * open their maps (loading what is on them, where the target has state to load): the figures are of
 * moving professionals who are on the map, not of professionals coming online.
 */
import { CITIES } from "../../convex/validators";
import { cpuSeconds } from "./cpu";
import { summarize, type Summary } from "./stats";

export interface FanoutTarget {
  /** Backend process, for its CPU time. */
  pid: number;
  /**
   * Subscribe to a city's markers; call `seen(index, lat)` for every marker whose latitude changed.
   * Resolves once the markers already on the map have arrived.
   */
  watch(city: string, seen: (index: string, lat: number) => void): Promise<void>;
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
  /** CPU of this process (all the simulated clients), in cores. */
  clientCpu: number;
};

const GRID = 0.005;
/** The n-th position of a professional: on the public grid, so rounding for customers keeps it exact. */
export const gridLat = (base: number, n: number) =>
  Number(((Math.round(base / GRID) + (n % 400)) * GRID).toFixed(6));

export async function runFanout(
  target: FanoutTarget,
  clients: number,
  { durationMs = 20_000, intervalMs = 5_000 } = {},
): Promise<FanoutResult> {
  const sentAt = new Map<string, number>(); // `${index}:${lat}` → send time
  const watchersPerCity = new Map<string, number>();
  const latencies: number[] = [];
  const cityOf = (i: number) => CITIES[i % CITIES.length];

  const reporters = [];
  for (let i = 0; i < clients; i++) reporters.push(await target.reporter(i, cityOf(i).slug));
  await Promise.all(
    reporters.map((report, i) => report(gridLat(cityOf(i).lat, 0), cityOf(i).lng + 0.01)),
  );
  for (let i = 0; i < clients; i++) {
    const city = cityOf(i).slug;
    watchersPerCity.set(city, (watchersPerCity.get(city) ?? 0) + 1);
    await target.watch(city, (id, lat) => {
      const t0 = sentAt.get(`${id}:${lat}`);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
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
  const cpu0 = cpuSeconds(target.pid);
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + durationMs;
  reporters.forEach((report, i) => {
    const city = cityOf(i);
    let n = 0;
    const tick = () => {
      if (performance.now() > until) return;
      const lat = gridLat(city.lat, ++n);
      sentAt.set(`${i}:${lat}`, performance.now());
      reports++;
      expected += watchersPerCity.get(city.slug) ?? 0;
      pending.push(
        report(lat, city.lng + 0.01).then(
          () => void answered++,
          () => void failedReports++,
        ),
      );
      timers.push(setTimeout(tick, intervalMs));
    };
    timers.push(setTimeout(tick, Math.random() * intervalMs));
  });
  await new Promise((r) => setTimeout(r, durationMs + 2_000));
  timers.forEach(clearTimeout);
  // a report still unanswered 30 s after the window (a client that lost its connection) counts as failed
  await Promise.race([Promise.allSettled(pending), new Promise((r) => setTimeout(r, 30_000))]);
  failedReports = reports - answered;
  const elapsed = (performance.now() - t0) / 1000;
  const serverCpu = (cpuSeconds(target.pid) - cpu0) / elapsed;
  const used = process.cpuUsage(clientCpu0);
  return {
    clients,
    reports,
    failedReports,
    expected,
    deliveries: latencies.length,
    latency: summarize(latencies),
    serverCpu,
    clientCpu: (used.user + used.system) / 1e6 / elapsed,
  };
}
