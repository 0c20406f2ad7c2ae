/**
 * The local backend target's simulated clients, in a fan-out generator process
 * (bench/lib/fanout-generator.ts): signed-in professionals call `locations:update`, and watchers see
 * their city's map as the search page does — `locations:onMap({city})` and one
 * `locations:marker({professionalId})` per listed professional, plus `locations:forActiveBookings`
 * when signed in — through the app's client (src/app/providers.tsx's `ConvexReactClient`, as
 * `useQuery` drives it: a watch's callback runs when its query's result changed and reads it with
 * `localQueryResult()`; convex/browser's `ConvexClient` would visit every listener of the client and
 * JSON.parse its query token on every Transition). This process's share of the unrelated
 * subscriptions (`notifications:unreadCount`) stays open beside them.
 */
import { anyApi } from "convex/server";
import { ConvexReactClient } from "convex/react";
import WebSocket from "ws";
import type { ConnectClients, Transit } from "./fanout";

export type AppClientsConfig = {
  url: string;
  /** Watcher i's session token (null: signed out). */
  watcherTokens: (string | null)[];
  professionalTokens: string[];
  /** Professional i's document id. */
  professionalIds: string[];
  unrelatedTokens: string[];
  traceStages: boolean;
};

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

export const connectClients: ConnectClients<AppClientsConfig> = async (config, part) => {
  const { traceStages } = config;
  const ws = (traceStages ? TimedWebSocket : WebSocket) as unknown as typeof globalThis.WebSocket;
  const indexOf = new Map(config.professionalIds.map((id, i) => [id, String(i)]));
  const open: ConvexReactClient[] = [];
  const connect = (token: string | null) => {
    const c = new ConvexReactClient(config.url, {
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
    config.unrelatedTokens
      .filter((_, i) => i % part.of === part.index)
      .map((token) => firstValue(connect(token), "notifications:unreadCount", {})),
  );
  return {
    async watch(index, city, seen) {
      const token = config.watcherTokens[index];
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
      const c = connect(config.professionalTokens[index]);
      await c.query(anyApi.professionals.me, {}); // connected and authenticated before the first report
      return async (lat, lng) => {
        await c.mutation(anyApi.locations.update, { latitude: lat, longitude: lng });
      };
    },
    transit: traceStages
      ? (reset): Transit => {
          if (reset) {
            mutationsSent.clear();
            transitionsArrived.clear();
          }
          return { sent: [...mutationsSent], arrived: [...transitionsArrived] };
        }
      : undefined,
    async close() {
      await Promise.all(open.map((c) => c.close()));
    },
  };
};
