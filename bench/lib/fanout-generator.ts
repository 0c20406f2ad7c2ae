/**
 * One fan-out generator process (forked by bench/lib/fanout.ts): it holds a share of the simulated
 * professionals and watchers of one target, connected by the target's `connectClients` module, and
 * answers each request of its parent over IPC with a message of the same id. Times are
 * `monotonicMs()` (one clock for all processes); a frame's arrival, which the target's clients note
 * in Unix ms, is moved onto that clock with this process's offset between the two.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  cityOf,
  gridLat,
  monotonicMs,
  reportKey,
  type ConnectClients,
  type FanoutClients,
  type GeneratorRequest,
  type GeneratorResults,
} from "./fanout";

const unixToMonotonic = monotonicMs() - (performance.timeOrigin + performance.now());

let clients: FanoutClients | undefined;
const reporters = new Map<number, (lat: number, lng: number) => Promise<void>>();
let t0 = Infinity;
const sends: number[] = [];
const sendIndices: number[] = [];
const arrivals: number[] = [];
const answeredIn: number[] = [];
const pending: Promise<void>[] = [];
const timers: NodeJS.Timeout[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 5 });

function connected(): FanoutClients {
  if (!clients) throw new Error("not connected");
  return clients;
}

function run(indices: number[], start: number, until: number, intervalMs: number) {
  t0 = start;
  for (const i of indices) {
    const report = reporters.get(i)!;
    const city = cityOf(i);
    let n = 0;
    const tick = () => {
      const sent = monotonicMs();
      if (sent > until) return;
      const lat = gridLat(city.lat, ++n);
      timers.push(setTimeout(tick, intervalMs));
      if (sent < t0) {
        report(lat, city.lng + 0.01).catch(() => {});
        return;
      }
      sends.push(reportKey(i, lat), sent);
      sendIndices.push(i);
      pending.push(
        report(lat, city.lng + 0.01).then(
          () => void answeredIn.push(monotonicMs() - sent),
          () => {},
        ),
      );
    };
    timers.push(setTimeout(tick, Math.random() * intervalMs));
  }
  timers.push(
    setTimeout(() => {
      clients?.transit?.(true);
      loopDelay.enable();
    }, t0 - monotonicMs()),
  );
}

async function handle(request: GeneratorRequest): Promise<unknown> {
  switch (request.op) {
    case "connect": {
      const module = (await import(pathToFileURL(request.module).href)) as {
        connectClients: ConnectClients<unknown>;
      };
      clients = await module.connectClients(request.config, request.part);
      return;
    }
    case "reporters": {
      for (const i of request.indices)
        reporters.set(i, await connected().reporter(i, cityOf(i).slug));
      await Promise.all(
        request.indices.map((i) =>
          reporters.get(i)!(gridLat(cityOf(i).lat, 0), cityOf(i).lng + 0.01),
        ),
      );
      return;
    }
    case "watchers": {
      for (const i of request.indices)
        await connected().watch(i, cityOf(i).slug, (id, lat, arrivedAt) => {
          const now = monotonicMs();
          if (now < t0) return;
          arrivals.push(
            reportKey(Number(id), lat),
            now,
            arrivedAt === undefined ? NaN : arrivedAt + unixToMonotonic,
          );
        });
      return;
    }
    case "run":
      return run(request.indices, request.t0, request.until, request.intervalMs);
    case "stop": {
      timers.forEach(clearTimeout);
      await Promise.race([Promise.allSettled(pending), new Promise((r) => setTimeout(r, 30_000))]);
      loopDelay.disable();
      return;
    }
    case "results": {
      const results: GeneratorResults = {
        sends: Float64Array.from(sends),
        sendIndices: Int32Array.from(sendIndices),
        arrivals: Float64Array.from(arrivals),
        answeredIn,
        loopDelay: {
          n: loopDelay.count,
          p50: loopDelay.percentile(50) / 1e6,
          p95: loopDelay.percentile(95) / 1e6,
          p99: loopDelay.percentile(99) / 1e6,
        },
        transit: clients?.transit?.(false),
      };
      return results;
    }
    case "close":
      return clients?.close();
  }
}

process.on("message", (message: GeneratorRequest & { id: number }) => {
  handle(message).then(
    (value) =>
      process.send?.({ id: message.id, ok: true, value }, () => {
        if (message.op === "close") process.exit(0);
      }),
    (error: unknown) =>
      process.send?.({
        id: message.id,
        ok: false,
        error: String((error as Error)?.stack ?? error),
      }),
  );
});
