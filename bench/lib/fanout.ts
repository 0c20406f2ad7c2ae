/**
 * The fan-out load generator shared by both targets: N professionals report a position every
 * `intervalMs` (random phase) while N customers watch their city; every report carries a unique
 * latitude so each watcher can tell when that exact report reached it.
 */
import { CITIES } from "../../convex/validators";
import { summarize, type Summary } from "./stats";

export interface FanoutTarget {
  /** Subscribe to a city's markers; call `seen(id, lat)` for every marker whose latitude changed. */
  watch(city: string, seen: (id: string, lat: number) => void): Promise<void>;
  /** Connect professional `index` (in `city`); returns a function that reports one position. */
  reporter(index: number, city: string): Promise<(lat: number, lng: number) => Promise<void>>;
  close(): Promise<void>;
}

export type FanoutResult = { clients: number; reports: number; deliveries: number; latency: Summary };

export async function runFanout(
  target: FanoutTarget,
  clients: number,
  { durationMs = 20_000, intervalMs = 5_000 } = {},
): Promise<FanoutResult> {
  const sentAt = new Map<string, number>(); // `${id}:${lat}` → send time
  const watchersPerCity = new Map<string, number>();
  const latencies: number[] = [];
  const cityOf = (i: number) => CITIES[i % CITIES.length];

  for (let i = 0; i < clients; i++) {
    const city = cityOf(i).slug;
    watchersPerCity.set(city, (watchersPerCity.get(city) ?? 0) + 1);
    await target.watch(city, (id, lat) => {
      const t0 = sentAt.get(`${id}:${lat}`);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
    });
  }
  const reporters = [];
  for (let i = 0; i < clients; i++) reporters.push(await target.reporter(i, cityOf(i).slug));

  let reports = 0;
  let expected = 0;
  const timers: NodeJS.Timeout[] = [];
  const pending: Promise<void>[] = [];
  const until = performance.now() + durationMs;
  reporters.forEach((report, i) => {
    const city = cityOf(i);
    let n = 0;
    const tick = () => {
      if (performance.now() > until) return;
      const lat = round7(city.lat + 0.01 + i * 1e-5 + ++n * 1e-7);
      const lng = city.lng + 0.01;
      sentAt.set(`${i}:${lat}`, performance.now());
      reports++;
      expected += watchersPerCity.get(city.slug) ?? 0;
      pending.push(report(lat, lng));
      timers.push(setTimeout(tick, intervalMs));
    };
    timers.push(setTimeout(tick, Math.random() * intervalMs));
  });
  await new Promise((r) => setTimeout(r, durationMs + 2_000));
  timers.forEach(clearTimeout);
  await Promise.allSettled(pending);
  return { clients, reports, deliveries: latencies.length, latency: summarize(latencies), ...{ expected } };
}

export const round7 = (x: number) => Math.round(x * 1e7) / 1e7;
