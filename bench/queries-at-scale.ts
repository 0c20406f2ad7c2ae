/**
 * Documents read per call at marketplace scale: 5,000 professionals (all on the map), 50,000 bookings,
 * the seeded catalogue. Shows that the hot reads (bookings:forProfessional, locations:current,
 * catalog:*) are bounded by their page or limit, not by table size.
 * Run: npx tsx bench/queries-at-scale.ts   (PROS=… BOOKINGS=… to change the scale)
 *
 * Figures come from convex-test's per-transaction metrics (documents returned by index ranges, as
 * Convex bills them); convex-test itself has no real indexes, so its wall times are not Convex's.
 */
import path from "node:path";
import { convexTest } from "convex-test";
import { TransactionMetricsTracker } from "../node_modules/convex-test/dist/transactionMetrics.js";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import schema from "../convex/schema";
import { upsertCatalog } from "../convex/model/catalog";
import { CITIES, SPECIALTIES } from "../convex/validators";
import { buildModuleMap, nativeImport } from "../local-backend/engine/modules";

const PROS = Number(process.env.PROS ?? 5000);
const BOOKINGS = Number(process.env.BOOKINGS ?? 50_000);
const CUSTOMERS = 1000;
const BATCH = 2500;

type Metrics = { documentsRead: number; bytesRead: number; databaseQueries: number };
let last: Metrics | null;
// Record the outermost transaction's usage as each call ends (commit for mutations, rollback for queries).
for (const method of ["commit", "rollback"] as const) {
  const original = TransactionMetricsTracker.prototype[method];
  TransactionMetricsTracker.prototype[method] = function (this: TransactionMetricsTracker) {
    const m = this.getTransactionMetrics();
    last = {
      documentsRead: m.documentsRead.used,
      bytesRead: m.bytesRead.used,
      databaseQueries: m.databaseQueries.used,
    };
    return original.call(this);
  };
}

const t = convexTest(schema, buildModuleMap(path.resolve("convex"), nativeImport));
const started = Date.now();

await t.run((ctx) => upsertCatalog(ctx));
const document = await t.run((ctx) =>
  ctx.storage.store(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])])),
);

const customerIds: Id<"users">[] = [];
for (let i = 0; i < CUSTOMERS; i += BATCH) {
  customerIds.push(
    ...(await t.run(async (ctx) => {
      const ids = [];
      for (let j = i; j < Math.min(i + BATCH, CUSTOMERS); j++) {
        ids.push(
          await ctx.db.insert("users", {
            name: `Customer ${j}`,
            role: "customer",
            email: `c${j}@bench.np`,
          }),
        );
      }
      return ids;
    })),
  );
}

const pros: { userId: Id<"users">; professionalId: Id<"professionals"> }[] = [];
for (let i = 0; i < PROS; i += BATCH) {
  pros.push(
    ...(await t.run(async (ctx) => {
      const rows = [];
      const now = Date.now();
      for (let j = i; j < Math.min(i + BATCH, PROS); j++) {
        const city = CITIES[j % CITIES.length];
        const specialty = SPECIALTIES[j % SPECIALTIES.length].slug;
        const userId = await ctx.db.insert("users", {
          name: `Professional ${j}`,
          role: "professional",
          email: `p${j}@bench.np`,
        });
        const professionalId = await ctx.db.insert("professionals", {
          userId,
          specialty,
          city: city.slug,
          state: "Bench",
          locations: [],
          documents: {
            citizenshipFront: document,
            citizenshipBack: document,
            trainingCertificate: document,
          },
          verification: { status: "verified" },
          rating: { sum: 0, count: 0 },
          available: true,
        });
        await ctx.db.insert("liveLocations", {
          professionalId,
          city: city.slug,
          specialty,
          lat: city.lat + ((j % 97) - 48) * 0.0004,
          lng: city.lng + ((j % 89) - 44) * 0.0004,
          updatedAt: now - (j % 500) * 1000,
        });
        rows.push({ userId, professionalId });
      }
      return rows;
    })),
  );
}

const service = await t.run(async (ctx) => (await ctx.db.query("services").first())!);
// A tenth of the bookings go to one busy professional, the rest spread over everyone.
const busy = pros[0];
for (let i = 0; i < BOOKINGS; i += BATCH) {
  await t.run(async (ctx) => {
    for (let j = i; j < Math.min(i + BATCH, BOOKINGS); j++) {
      const pro = j % 10 === 0 ? busy : pros[j % pros.length];
      await ctx.db.insert("bookings", {
        customerId: customerIds[j % customerIds.length],
        professionalId: pro.professionalId,
        professionalUserId: pro.userId,
        services: [{ id: service._id, name: service.name, category: service.category, price: 500 }],
        address: "Bench Road",
        city: "kathmandu",
        scheduledFor: Date.now() + 3_600_000,
        price: 500,
        status: "requested",
        updatedAt: Date.now(),
      });
    }
  });
}
console.log(
  `seeded ${PROS} professionals, ${BOOKINGS} bookings, ${CUSTOMERS} customers in ${Date.now() - started} ms\n`,
);

const asBusy = t.withIdentity({ subject: `${busy.userId}|bench` });
const admin = await t.run((ctx) =>
  ctx.db.insert("users", { name: "Admin", role: "admin", username: "bench-admin" }),
);
const asAdmin = t.withIdentity({ subject: `${admin}|bench` });

const calls: [string, () => Promise<unknown>][] = [
  [
    "bookings:forProfessional (busy pro, 20/page)",
    () =>
      asBusy.query(api.bookings.forProfessional, {
        paginationOpts: { numItems: 20, cursor: null },
      }),
  ],
  ["locations:current {} (visitor)", () => t.query(api.locations.current, {})],
  [
    "locations:current {city} (visitor)",
    () => t.query(api.locations.current, { city: "kathmandu" }),
  ],
  [
    "locations:current {city, specialty} (admin)",
    () => asAdmin.query(api.locations.current, { city: "kathmandu", specialty: "plumber" }),
  ],
  ["catalog:categories", () => t.query(api.catalog.categories, {})],
  ["catalog:serviceNames", () => t.query(api.catalog.serviceNames, { category: "Electrician" })],
  [
    "catalog:serviceDetails",
    () =>
      t.query(api.catalog.serviceDetails, {
        category: "electrical",
        serviceName: "House Wiring",
        location: "Kathmandu",
      }),
  ],
  ["catalog:search", () => t.query(api.catalog.search, { text: "repair" })],
  ["catalog:tileMarble", () => t.query(api.catalog.tileMarble, {})],
];

console.log(
  "call".padEnd(48),
  "docs read".padStart(10),
  "KiB read".padStart(10),
  "index ranges".padStart(13),
  "results".padStart(8),
);
for (const [name, call] of calls) {
  last = null;
  const result = await call();
  const count = Array.isArray(result)
    ? result.length
    : ((result as { page?: unknown[] }).page?.length ?? "-");
  const m = last as Metrics | null;
  console.log(
    name.padEnd(48),
    String(m?.documentsRead ?? "?").padStart(10),
    (m ? (m.bytesRead / 1024).toFixed(1) : "?").padStart(10),
    String(m?.databaseQueries ?? "?").padStart(13),
    String(count).padStart(8),
  );
}
console.log(
  `\ntable sizes: professionals ${PROS}, liveLocations ${PROS}, bookings ${BOOKINGS} (busy professional: ${BOOKINGS / 10})`,
);
