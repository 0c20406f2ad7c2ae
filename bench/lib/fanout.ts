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
 *
 * The simulated clients run in generator processes (bench/lib/fanout-generator.ts), as many as
 * `generatorProcesses(clients)` says, so that none of them is the bottleneck; client i (professional
 * i and watcher i) lives in process i mod P, for both targets alike. Every timestamp is taken with
 * `monotonicMs()`, the machine's one monotonic clock, in whichever process the event happens; this
 * process joins sends and arrivals after the window.
 */
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { CITIES } from "../../convex/validators";
import type { StageSummary } from "../../local-backend/stage-trace";
import { cpuSeconds } from "./cpu";
import { summarize, type Summary } from "./stats";

/** A watcher's callback: marker `index` (the professional's) is now at latitude `lat`; `arrivedAt`: when its frame reached the process (Unix ms), if known. */
export type Seen = (index: string, lat: number, arrivedAt?: number) => void;

/** The frames each generator process timed, to join with the backend's stage timestamps (Unix ms). */
export type Transit = { sent: [string, number][]; arrived: [string, number][] };

/** The simulated clients of one target inside one generator process. */
export interface FanoutClients {
  /** Open watcher `index`'s map of `city`; resolves once the markers already on it have arrived. */
  watch(index: number, city: string, seen: Seen): Promise<void>;
  /** Connect professional `index` (in `city`); returns a function that reports one position. */
  reporter(index: number, city: string): Promise<(lat: number, lng: number) => Promise<void>>;
  /** With stage tracing: forget the frames timed so far, or hand them over. */
  transit?(reset: boolean): Transit;
  close(): Promise<void>;
}

/**
 * A module a generator process imports to connect a target's clients: it exports
 * `connectClients(config, part)`; `part` says which of the generator processes this is.
 */
export type ConnectClients<Config> = (
  config: Config,
  part: { index: number; of: number },
) => Promise<FanoutClients>;

export interface FanoutTarget {
  /** Backend process, for its CPU time. */
  pid: number;
  /** The module exporting `connectClients` (a file path) and its config (sent over IPC). */
  clients: { module: string; config: unknown };
  /** Per-stage timestamps of the backend, when it records them: reset, or the summary so far joined with the clients' frames. */
  stages?(reset: boolean, transit?: Transit): Promise<StageSummary | undefined>;
  close(): Promise<void>;
}

/** CPU of the generator processes during the window, in cores (1 = one core busy). */
export type GeneratorCpu = { processes: number; max: number; mean: number };

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
  /** CPU of all the simulated clients (every generator process together), in cores. */
  clientCpu: number;
  generatorCpu: GeneratorCpu;
  /** With stage tracing: the backend's stages and the clients' (ms). */
  stages?: StageSummary;
};

const GRID = 0.005;
/** The n-th position of a professional: on the public grid, so rounding for customers keeps it exact. */
export const gridLat = (base: number, n: number) =>
  Number(((Math.round(base / GRID) + (n % 400)) * GRID).toFixed(6));
/** One number per report: the professional and the grid step of the latitude it reported. */
export const reportKey = (index: number, lat: number) => index * 100_000 + Math.round(lat / GRID);
export const cityOf = (i: number) => CITIES[i % CITIES.length];

/** CLOCK_MONOTONIC in ms (libuv's hrtime): one clock for every process on the machine. */
export const monotonicMs = () => Number(process.hrtime.bigint() / 1000n) / 1000;

/**
 * Generator processes for `clients` professionals + `clients` watchers: enough that each stays
 * under half a core. Their work is per delivery (a frame read, parsed and handed to a callback) and
 * per client (a report every 5 s, subscriptions, keepalives). Sized on the app's clients, the
 * costlier, in one process before the split: 16–25% of a core at 300 + 300 (3,000 deliveries/s) and
 * 88–90% at 1,000 + 1,000 (33,000/s, where it was saturated, so at least 27 µs per delivery): taken
 * as 35 µs per delivery and 0.5 ms per client each second, with 35% of a core per process so that a
 * busier second stays under 50%.
 */
export function generatorProcesses(clients: number, intervalMs = 5_000): number {
  const watchersPerCity = clients / CITIES.length;
  const deliveriesPerSecond = (clients * watchersPerCity * 1000) / intervalMs;
  const cores = deliveriesPerSecond * 35e-6 + clients * 5e-4;
  return Math.max(1, Math.ceil(cores / 0.35));
}

/** Messages to a generator process (bench/lib/fanout-generator.ts); each is answered by one with the same id. */
export type GeneratorRequest =
  | { op: "connect"; module: string; config: unknown; part: { index: number; of: number } }
  | { op: "reporters"; indices: number[] }
  | { op: "watchers"; indices: number[] }
  | { op: "run"; indices: number[]; t0: number; until: number; intervalMs: number }
  | { op: "stop" }
  | { op: "results" }
  | { op: "close" };

export type GeneratorResults = {
  /** (reportKey, sent at) pairs of the reports sent in the window, and the report's index. */
  sends: Float64Array;
  sendIndices: Int32Array;
  /** (reportKey, callback at, frame arrived at or NaN) triples of every marker change seen from t0. */
  arrivals: Float64Array;
  answeredIn: number[];
  loopDelay: { n: number; p50: number; p95: number; p99: number };
  transit?: Transit;
};

class Generator {
  private nextId = 0;
  private waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private constructor(readonly child: ChildProcess) {
    child.on("message", (m: { id: number; ok: boolean; value: unknown; error: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.ok) w?.resolve(m.value);
      else w?.reject(new Error(`fan-out generator: ${m.error}`));
    });
    child.on("exit", (code) => {
      for (const w of this.waiting.values())
        w.reject(new Error(`fan-out generator exited (${code})`));
      this.waiting.clear();
    });
  }
  static start() {
    const child = fork(new URL("./fanout-generator.ts", import.meta.url).pathname, [], {
      execArgv: ["--import", "tsx"],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return new Generator(child);
  }
  get pid() {
    return this.child.pid!;
  }
  request<T = void>(message: GeneratorRequest): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, ...message });
    });
  }
  async close() {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, "exit");
    await this.request({ op: "close" }).catch(() => this.child.kill());
    await exited;
  }
}

export async function runFanout(
  target: FanoutTarget,
  clients: number,
  {
    durationMs = 20_000,
    intervalMs = 5_000,
    warmupMs = 5_000,
    processes = generatorProcesses(clients, intervalMs),
  } = {},
): Promise<FanoutResult> {
  const generators = Array.from({ length: processes }, () => Generator.start());
  try {
    const shares = generators.map((_, p) =>
      Array.from({ length: clients }, (_, i) => i).filter((i) => i % processes === p),
    );
    await Promise.all(
      generators.map((g, index) =>
        g.request({ op: "connect", ...target.clients, part: { index, of: processes } }),
      ),
    );
    await Promise.all(generators.map((g, p) => g.request({ op: "reporters", indices: shares[p] })));
    await Promise.all(generators.map((g, p) => g.request({ op: "watchers", indices: shares[p] })));
    // phones write at most once a second (locations:update refuses sooner writes)
    await new Promise((r) => setTimeout(r, 1_000));

    // The same load runs for warmupMs before the window: its figures are of processes whose code the
    // JIT has compiled by then (each target's, alike), not of their first seconds.
    const t0 = monotonicMs() + warmupMs;
    const until = t0 + durationMs;
    await Promise.all(
      generators.map((g, p) => g.request({ op: "run", indices: shares[p], t0, until, intervalMs })),
    );
    await new Promise((r) => setTimeout(r, t0 - monotonicMs()));
    await target.stages?.(true);
    const cpu0 = cpuSeconds(target.pid);
    const generatorCpu0 = generators.map((g) => cpuSeconds(g.pid));
    const measuredFrom = monotonicMs();
    await new Promise((r) => setTimeout(r, durationMs + 2_000));
    const generatorSeconds = generators.map((g, p) => cpuSeconds(g.pid) - generatorCpu0[p]);
    const generatorElapsed = (monotonicMs() - measuredFrom) / 1000;
    // a report still unanswered 30 s after the window (a client that lost its connection) counts as failed
    await Promise.all(generators.map((g) => g.request({ op: "stop" })));
    const elapsed = (monotonicMs() - measuredFrom) / 1000;
    const serverCpu = (cpuSeconds(target.pid) - cpu0) / elapsed;
    const results = await Promise.all(
      generators.map((g) => g.request<GeneratorResults>({ op: "results" })),
    );
    const perProcess = generatorSeconds.map((s) => s / generatorElapsed);

    const watchersPerCity = new Map<string, number>();
    for (let i = 0; i < clients; i++) {
      const city = cityOf(i).slug;
      watchersPerCity.set(city, (watchersPerCity.get(city) ?? 0) + 1);
    }
    const sentAt = new Map<number, number>();
    let expected = 0;
    for (const r of results) {
      for (let j = 0; j < r.sendIndices.length; j++) {
        sentAt.set(r.sends[2 * j], r.sends[2 * j + 1]);
        expected += watchersPerCity.get(cityOf(r.sendIndices[j]).slug) ?? 0;
      }
    }
    const latencies: number[] = [];
    const toFrame: number[] = [];
    const toCallback: number[] = [];
    for (const r of results) {
      const a = r.arrivals;
      for (let j = 0; j < a.length; j += 3) {
        const sent = sentAt.get(a[j]);
        if (sent === undefined) continue;
        latencies.push(a[j + 1] - sent);
        if (Number.isNaN(a[j + 2])) continue;
        toFrame.push(a[j + 2] - sent);
        toCallback.push(a[j + 1] - a[j + 2]);
      }
    }
    const answeredIn = results.flatMap((r) => r.answeredIn);
    const reports = sentAt.size;
    const transit: Transit | undefined = results[0].transit && {
      sent: results.flatMap((r) => r.transit?.sent ?? []),
      arrived: results.flatMap((r) => r.transit?.arrived ?? []),
    };
    const backendStages = await target.stages?.(false, transit);
    const worstLoop = results.map((r) => r.loopDelay).reduce((a, b) => (b.p95 > a.p95 ? b : a));
    const stages: StageSummary | undefined = backendStages && {
      ...backendStages,
      ...clientStage("clients: report sent → mutation answered", answeredIn),
      ...clientStage("clients: report sent → frame arrived", toFrame),
      ...clientStage("clients: frame arrived → callback", toCallback),
      ...clientStage("clients: report sent → callback (total)", latencies),
      "clients: event loop delay (worst generator)": worstLoop,
    };
    return {
      clients,
      reports,
      failedReports: reports - answeredIn.length,
      expected,
      deliveries: latencies.length,
      latency: summarize(latencies),
      serverCpu,
      serverCpuPerDeliveryUs:
        latencies.length === 0 ? 0 : ((serverCpu * elapsed) / latencies.length) * 1e6,
      clientCpu: perProcess.reduce((a, b) => a + b, 0),
      generatorCpu: {
        processes,
        max: Math.max(...perProcess),
        mean: perProcess.reduce((a, b) => a + b, 0) / processes,
      },
      ...(stages ? { stages } : {}),
    };
  } finally {
    await Promise.all(generators.map((g) => g.close()));
  }
}

function clientStage(stage: string, samples: number[]): StageSummary {
  if (samples.length === 0) return {};
  const { n, p50, p95, p99 } = summarize(samples);
  return { [stage]: { n, p50, p95, p99 } };
}
