/**
 * "Nearest available now": a customer's `dispatch:request` → the offer on a professional's screen
 * (`dispatch:myOffers`, as the dashboard watches it), with `online` electricians online in Kathmandu
 * (heartbeat and a live position each, on their own clients). Requests go one after another, each
 * from a fresh customer (one search at a time per customer), and are cancelled once offered so every
 * professional stays free. Baseline, same run: a bare write → subscription on the fixture backend
 * (the realtime section's floor).
 */
import { ConvexReactClient } from "convex/react";
import { anyApi } from "convex/server";
import WebSocket from "ws";
import { CITIES, SPECIALTIES } from "../../convex/constants";
import { searchRankOf } from "../../convex/rules/searchRank";
import { createAccounts, startBenchBackend } from "../lib/backend";
import { summarize, type Summary } from "../lib/stats";
import { realtime } from "./realtime";

const WARM_UP = 3;
const PROFILE = {
  verification: { status: "verified" as const },
  rating: { sum: 0, count: 0 },
  available: true,
};

async function dispatchLatency(online: number, requests: number): Promise<Summary> {
  const backend = await startBenchBackend();
  const clients: ConvexReactClient[] = [];
  const connect = (token: string) => {
    const c = new ConvexReactClient(backend.url, {
      webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
      unsavedChangesWarning: false,
    });
    c.setAuth(async () => token);
    clients.push(c);
    return c;
  };
  try {
    await backend.run("seed:init", { demo: false });
    const category = SPECIALTIES.find((s) => s.slug === "electrician")!.category;
    const [serviceName] = (await backend.run("catalog:serviceNames", { category })) as string[];
    const service = (await backend.run("catalog:serviceDetails", {
      category,
      serviceName,
      location: "kathmandu",
    })) as { _id: string } | null;
    if (service === null) throw new Error(`no ${serviceName} in Kathmandu`);
    const centre = CITIES.find((c) => c.slug === "kathmandu")!;
    const png = await backend.storeBlob(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "image/png");
    const pros = await createAccounts(
      backend,
      Array.from({ length: online }, (_, i) => ({
        name: `Electrician ${i}`,
        role: "professional",
        email: `e${i}@bench.np`,
      })),
    );
    await backend.insert(
      "professionals",
      pros.map((p) => ({
        userId: p.userId,
        specialty: "electrician",
        city: "kathmandu",
        state: "Bagmati",
        locations: [],
        documents: { citizenshipFront: png, citizenshipBack: png, trainingCertificate: png },
        ...PROFILE,
        searchRank: searchRankOf(PROFILE),
      })),
    );
    // every offer any professional is shown, by id, when it first appears
    const firstSeen = new Map<string, number>();
    let seen = () => {};
    await Promise.all(
      pros.map(async (p, i) => {
        const c = connect(p.token);
        await c.mutation(anyApi.presence.heartbeat, {});
        await c.mutation(anyApi.locations.update, {
          latitude: centre.lat + ((i % 10) - 5) * 0.004,
          longitude: centre.lng + (Math.floor(i / 10) - 2) * 0.004,
        });
        const watch = c.watchQuery(anyApi.dispatch.myOffers, {});
        await new Promise<void>((ready) =>
          watch.onUpdate(() => {
            const at = performance.now();
            for (const offer of (watch.localQueryResult() ?? []) as { _id: string }[])
              if (!firstSeen.has(offer._id)) {
                firstSeen.set(offer._id, at);
                seen();
              }
            ready();
          }),
        );
      }),
    );
    const customers = await createAccounts(
      backend,
      Array.from({ length: requests + WARM_UP }, (_, i) => ({
        name: `Customer ${i}`,
        role: "customer",
        email: `d${i}@bench.np`,
      })),
    );
    const samples: number[] = [];
    for (const [i, customer] of customers.entries()) {
      const c = connect(customer.token);
      await c.query(anyApi.users.viewer, {}); // connected and signed in before the clock starts
      const before = firstSeen.size;
      const offered = new Promise<number>((resolve) => {
        seen = () => {
          if (firstSeen.size > before) resolve(Math.min(...[...firstSeen.values()].slice(before)));
        };
      });
      const t0 = performance.now();
      const requestId = await c.mutation(anyApi.dispatch.request, {
        serviceIds: [service._id],
        city: "kathmandu",
        address: "Ward 10, New Baneshwor",
        pin: { lat: centre.lat + 0.002, lng: centre.lng + 0.002 },
      });
      const at = await offered;
      if (i >= WARM_UP) samples.push(at - t0);
      await c.mutation(anyApi.dispatch.cancel, { requestId });
      await c.close();
    }
    return summarize(samples);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await backend.close();
  }
}

export type DispatchResult = { online: number; requests: number; ours: Summary; floor: Summary };

export async function dispatch({ online = 50, requests = 30 } = {}): Promise<DispatchResult> {
  const ours = await dispatchLatency(online, requests);
  const { backend: floor } = await realtime({ writes: 100 });
  return { online, requests, ours, floor };
}
