/**
 * Fan-out target: a fresh local backend running the real app (convex/), with the accounts its
 * simulated clients sign in with (bench/lib/app-clients.ts, run in the generator processes):
 * N professionals, N customers watching their city's map and 50 other customers keeping an
 * unrelated subscription (`notifications:unreadCount`) open. `watchers: "visitors"` watches signed
 * out instead. The map's queries do not read the viewer, so all watchers share one run per change.
 */
import { fileURLToPath } from "node:url";
import {
  createAccounts,
  createProfessionals,
  startBenchBackend,
  type BenchBackend,
} from "./backend";
import type { AppClientsConfig } from "./app-clients";
import { summarize } from "./stats";
import type { FanoutTarget, Transit } from "./fanout";

/** The backend's stages plus the two ways between the clients and the backend, joined per frame. */
async function withTransit(backend: BenchBackend, reset: boolean, transit?: Transit) {
  const stages = await backend.stages(reset);
  if (!stages) return undefined;
  const mutationsSent = new Map(transit?.sent);
  const transitionsArrived = new Map(transit?.arrived);
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
  const config: AppClientsConfig = {
    url: backend.url,
    watcherTokens: customers
      .slice(0, clients)
      .map((u) => (watchers === "customers" ? u.token : null)),
    professionalTokens: pros.map((p) => p.token),
    professionalIds,
    unrelatedTokens: customers.slice(clients).map((u) => u.token),
    traceStages,
  };
  return {
    pid: backend.pid,
    clients: { module: fileURLToPath(new URL("./app-clients.ts", import.meta.url)), config },
    stages: traceStages
      ? (reset, transit) => withTransit(backend, reset, transit)
      : process.env.BENCH_BACKEND_PROFILE
        ? // The backend's window profile starts and stops with its stages, also untraced.
          async (reset) => void (await backend.stages(reset))
        : undefined,
    close: () => backend.close(),
  };
}
