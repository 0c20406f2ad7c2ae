/**
 * Fan-out target: a fresh local backend running the real app (convex/): signed-in professionals
 * call `locations:update`, signed-in customers watch their city's map as the search page does —
 * `locations:onMap({city})` (who is on the map) and one `locations:marker({professionalId})` per
 * listed professional — while 50 other customers keep an unrelated subscription
 * (`notifications:unreadCount`) open. Like the search page, a signed-in customer also subscribes
 * to `locations:forActiveBookings` (exact positions of their active bookings' professionals; these
 * customers have none, so position writes do not re-run it). `watchers: "visitors"` watches signed
 * out instead. The map's queries do not read the viewer, so all watchers share one run per change.
 */
import { anyApi } from "convex/server";
import { ConvexReactClient } from "convex/react";
import WebSocket from "ws";
import {
  createAccounts,
  createProfessionals,
  startBenchBackend,
  type BenchBackend,
} from "./backend";
import { summarize } from "./stats";
import type { FanoutTarget } from "./fanout";

const epochMs = () => performance.timeOrigin + performance.now();
/** When the last frame reached any of this process's sockets (Unix ms): the one a callback is handling. */
let lastFrameAt = 0;
/** `${sessionId}:${requestId}` → when a Mutation was handed to the socket; `${sessionId}:${ts}` → when a Transition arrived. */
const mutationsSent = new Map<string, number>();
const transitionsArrived = new Map<string, number>();

/** A client socket that notes when frames go and come, to join with the backend's stage timestamps. */
class TimedWebSocket extends WebSocket {
  private sessionId = "";
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    // before the client's own onmessage, which runs the subscription callbacks synchronously
    this.on("message", (data) => {
      lastFrameAt = epochMs();
      const ts = /^\{"type":"Transition",.*?"endVersion":\{[^}]*"ts":"([^"]+)"/.exec(String(data));
      if (ts) transitionsArrived.set(`${this.sessionId}:${ts[1]}`, lastFrameAt);
    });
  }
  override send(data: unknown, ...rest: unknown[]) {
    if (typeof data === "string") {
      const message = JSON.parse(data) as { type: string; sessionId?: string; requestId?: number };
      if (message.type === "Connect") this.sessionId = message.sessionId ?? "";
      if (message.type === "Mutation")
        mutationsSent.set(`${this.sessionId}:${message.requestId}`, epochMs());
    }
    (super.send as (...a: unknown[]) => void)(data, ...rest);
  }
}

/** The backend's stages plus the two ways between this process and the backend, joined per frame. */
async function withTransit(backend: BenchBackend, reset: boolean) {
  if (reset) {
    mutationsSent.clear();
    transitionsArrived.clear();
  }
  const stages = await backend.stages(reset);
  if (!stages) return undefined;
  const up: number[] = [];
  const down: number[] = [];
  for (const [key, at] of Object.entries(stages.joins.received)) {
    const sent = mutationsSent.get(key);
    if (sent !== undefined) up.push(at - sent);
  }
  for (const [key, at] of Object.entries(stages.joins.written)) {
    const arrived = transitionsArrived.get(key);
    if (arrived !== undefined) down.push(arrived - at);
  }
  const summary = { ...stages.summary };
  for (const [stage, samples] of [
    ["transit: client ws.send → backend reads the mutation", up],
    ["transit: backend wrote a Transition → client reads it", down],
  ] as const) {
    if (samples.length === 0) continue;
    const { n, p50, p95, p99 } = summarize(samples);
    summary[stage] = { n, p50, p95, p99 };
  }
  return summary;
}
export const UNRELATED_SUBSCRIPTIONS = 50;

export type Watchers = "customers" | "visitors";

export async function startAppTarget(
  clients: number,
  watchers: Watchers = "customers",
  { traceStages = false } = {},
): Promise<FanoutTarget> {
  const backend = await startBenchBackend(undefined, { traceStages });
  const ws = (traceStages ? TimedWebSocket : WebSocket) as unknown as typeof globalThis.WebSocket;
  await backend.run("seed:init", { demo: false });
  const customers = await createAccounts(
    backend,
    Array.from({ length: clients + UNRELATED_SUBSCRIPTIONS }, (_, i) => ({
      name: `Customer ${i}`,
      role: "customer",
      email: `c${i}@bench.np`,
    })),
  );
  const { accounts: pros, professionalIds } = await createProfessionals(backend, clients);
  const indexOf = new Map(professionalIds.map((id, i) => [id, String(i)]));

  // The app's client (src/app/providers.tsx), as useQuery drives it: a watch's callback runs when its
  // query's result changed and reads it with localQueryResult(). (convex/browser's ConvexClient instead
  // visits every listener of the client and JSON.parses its query token on every Transition.)
  const open: ConvexReactClient[] = [];
  const connect = (token: string | null) => {
    const c = new ConvexReactClient(backend.url, {
      webSocketConstructor: ws,
      unsavedChangesWarning: false,
    });
    if (token !== null) c.setAuth(async () => token);
    open.push(c);
    return c;
  };
  const onUpdate = (
    c: ConvexReactClient,
    fn: string,
    args: Record<string, unknown>,
    onValue: (v: unknown) => void,
  ) => {
    const watch = c.watchQuery(anyApi[fn.split(":")[0]][fn.split(":")[1]], args);
    return watch.onUpdate(() => onValue(watch.localQueryResult()));
  };
  const firstValue = (
    c: ConvexReactClient,
    fn: string,
    args: Record<string, unknown>,
    onValue: (v: unknown) => void = () => {},
  ) =>
    new Promise<void>((ready) =>
      onUpdate(c, fn, args, (v) => {
        onValue(v);
        ready();
      }),
    );
  await Promise.all(
    customers
      .slice(clients)
      .map((u) => firstValue(connect(u.token), "notifications:unreadCount", {})),
  );
  let nextCustomer = 0;
  return {
    pid: backend.pid,
    stages: traceStages
      ? (reset) => withTransit(backend, reset)
      : process.env.BENCH_BACKEND_PROFILE
        ? // The backend's window profile starts and stops with its stages, also untraced.
          async (reset) => void (await backend.stages(reset))
        : undefined,
    async watch(city, seen) {
      const token = watchers === "customers" ? customers[nextCustomer++].token : null;
      const c = connect(token);
      if (token !== null) await firstValue(c, "locations:forActiveBookings", {});
      const markers = new Map<string, () => void>();
      const loaded: Promise<void>[] = [];
      await firstValue(c, "locations:onMap", { city }, (rows) => {
        const listed = new Set((rows as { professionalId: string }[]).map((r) => r.professionalId));
        for (const [id, unsubscribe] of markers)
          if (!listed.has(id)) {
            unsubscribe();
            markers.delete(id);
          }
        for (const id of listed) {
          if (markers.has(id)) continue;
          let last: number | undefined;
          let arrived = () => {};
          loaded.push(new Promise((resolve) => (arrived = resolve)));
          const unsubscribe = onUpdate(c, "locations:marker", { professionalId: id }, (value) => {
            const at = value as { lat: number } | null;
            arrived();
            if (at !== null && at.lat !== last)
              seen(indexOf.get(id) ?? id, at.lat, traceStages ? lastFrameAt : undefined);
            last = at?.lat;
          });
          markers.set(id, unsubscribe);
        }
      });
      await Promise.all(loaded);
    },
    async reporter(index) {
      const c = connect(pros[index].token);
      await c.query(anyApi.professionals.me, {}); // connected and authenticated before the first report
      return async (lat, lng) => {
        await c.mutation(anyApi.locations.update, { latitude: lat, longitude: lng });
      };
    },
    async close() {
      await Promise.all(open.map((c) => c.close()));
      await backend.close();
    },
  };
}
