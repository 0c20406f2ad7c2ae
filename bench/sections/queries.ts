/**
 * Queries at marketplace scale (5,000 professionals all on the map, 50,000 bookings, a tenth of
 * them for one busy professional) against the same calls on an empty database (catalogue and the
 * calling users only): median wall time over repeated calls and documents read per call.
 *
 * Runs on a fresh local backend started in-process (its engine, with its index candidates);
 * rows go in through `backend.engine.t.run`, calls through `backend.engine.call` (no network).
 * Documents read come from convex-test's per-transaction metrics (documents returned by index
 * ranges, as Convex bills them).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Id } from "../../convex/_generated/dataModel";
import type { MutationCtx } from "../../convex/_generated/server";
import { upsertCatalog } from "../../convex/model/catalog";
import { searchRankOf } from "../../convex/rules/searchRank";
import { CITIES, SPECIALTIES } from "../../convex/validators";
import { TransactionMetrics } from "../../local-backend/engine/transaction-metrics";
import type { Identity } from "../../local-backend/engine/engine";
import { startBackend, type Backend } from "../../local-backend/server";
import { APP_CONVEX_DIR } from "../lib/backend";

type Metrics = { documentsRead: number; bytesRead: number };
let last: Metrics | null = null;
let instrumented = false;
/** Records the outermost transaction's usage as each call ends (commit for mutations, rollback for queries). */
function instrument() {
  if (instrumented) return;
  instrumented = true;
  for (const method of ["commit", "rollback"] as const) {
    const original = TransactionMetrics.prototype[method];
    TransactionMetrics.prototype[method] = function (this: TransactionMetrics) {
      const m = this.getTransactionMetrics();
      last = { documentsRead: m.documentsRead.used, bytesRead: m.bytesRead.used };
      return original.call(this);
    };
  }
}

// rows per transaction: each stays well inside Convex's 1 s execution limit on a busy machine, also
// when a full GC of the 50k/500k heap pauses the process inside it
const BATCH = 100;
const CUSTOMERS = 1000;
const PROFILE = {
  verification: { status: "verified" as const },
  rating: { sum: 0, count: 0 },
  available: true,
};

type Ctx = Omit<MutationCtx, "storage"> & {
  storage: MutationCtx["storage"] & { store(blob: Blob): Promise<Id<"_storage">> };
};

async function seeded(pros: number, bookings: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gharsewa-bench-queries-"));
  const backend: Backend = await startBackend({
    port: 0,
    sitePort: 0,
    dataDir,
    convexDir: APP_CONVEX_DIR,
  });
  const t = {
    run: <T>(fn: (ctx: Ctx) => Promise<T>): Promise<T> =>
      backend.engine.t.run(fn as never) as Promise<T>,
  };
  await t.run((ctx) => upsertCatalog(ctx as MutationCtx));
  const document = await t.run((ctx) =>
    ctx.storage.store(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])])),
  );
  const customerIds: Id<"users">[] = [];
  const customers = Math.max(1, Math.min(CUSTOMERS, bookings));
  for (let i = 0; i < customers; i += BATCH) {
    customerIds.push(
      ...(await t.run(async (ctx) => {
        const ids: Id<"users">[] = [];
        for (let j = i; j < Math.min(i + BATCH, customers); j++) {
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
  const proRows: { userId: Id<"users">; professionalId: Id<"professionals"> }[] = [];
  const total = Math.max(1, pros);
  for (let i = 0; i < total; i += BATCH) {
    proRows.push(
      ...(await t.run(async (ctx) => {
        const rows = [];
        const now = Date.now();
        for (let j = i; j < Math.min(i + BATCH, total); j++) {
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
            ...PROFILE,
            searchRank: searchRankOf(PROFILE),
          });
          // the empty database has the calling professional but nothing on the map
          if (pros > 0) {
            await ctx.db.insert("liveLocations", {
              professionalId,
              city: city.slug,
              specialty,
              lat: city.lat + ((j % 97) - 48) * 0.0004,
              lng: city.lng + ((j % 89) - 44) * 0.0004,
              updatedAt: now - (j % 500) * 1000,
              name: `Professional ${j}`,
              listed: true,
            });
            await ctx.db.insert("mapMarkers", {
              professionalId,
              city: city.slug,
              specialty,
              name: `Professional ${j}`,
              listed: true,
            });
          }
          rows.push({ userId, professionalId });
        }
        return rows;
      })),
    );
  }
  const service = await t.run(async (ctx) => (await ctx.db.query("services").first())!);
  const busy = proRows[0];
  for (let i = 0; i < bookings; i += BATCH) {
    await t.run(async (ctx) => {
      for (let j = i; j < Math.min(i + BATCH, bookings); j++) {
        const pro = j % 10 === 0 ? busy : proRows[j % proRows.length];
        await ctx.db.insert("bookings", {
          customerId: customerIds[j % customerIds.length],
          professionalId: pro.professionalId,
          professionalUserId: pro.userId,
          services: [
            { id: service._id, name: service.name, category: service.category, price: 500 },
          ],
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
  // with two-factor set up (a bare password opens no admin function: convex/functions.ts)
  const admin = await t.run(async (ctx) => {
    const userId = await ctx.db.insert("users", {
      name: "Admin",
      role: "admin",
      username: "bench-admin",
    });
    const now = Date.now();
    await ctx.db.insert("twoFactor", {
      userId,
      secret: "bench: no usable secret",
      setupStartedAt: now,
      enabledAt: now,
      recoveryCodes: [],
    });
    return userId;
  });
  // signed in as auth's tokens are: the viewer's session must exist
  const identity = async (userId: Id<"users">): Promise<Identity> => {
    const sessionId = await t.run((ctx) =>
      ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
    );
    return {
      subject: `${userId}|${sessionId}`,
      issuer: "bench",
      tokenIdentifier: `bench|${userId}|${sessionId}`,
    };
  };
  const [busyIdentity, adminIdentity] = [await identity(busy.userId), await identity(admin)];
  const query = (fn: string, args: unknown, who: Identity | null) =>
    backend.engine.call("query", fn, args, { identity: who }).then((r) => r.value);
  return {
    visitor: (fn: string, args: unknown) => query(fn, args, null),
    asBusy: (fn: string, args: unknown) => query(fn, args, busyIdentity),
    asAdmin: (fn: string, args: unknown) => query(fn, args, adminIdentity),
    async close() {
      await backend.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Db = Awaited<ReturnType<typeof seeded>>;
const CALLS: [string, (db: Db) => Promise<unknown>][] = [
  [
    "bookings:forProfessional (busy pro, 20/page)",
    ({ asBusy }) =>
      asBusy("bookings:forProfessional", { paginationOpts: { numItems: 20, cursor: null } }),
  ],
  [
    "locations:current {city} (visitor)",
    ({ visitor }) => visitor("locations:current", { city: "kathmandu" }),
  ],
  ["locations:current {} (visitor)", ({ visitor }) => visitor("locations:current", {})],
  [
    "professionals:search {plumber, kathmandu}",
    ({ visitor }) => visitor("professionals:search", { specialty: "plumber", city: "kathmandu" }),
  ],
  [
    "admin:technicians {} (admin, 24/page)",
    ({ asAdmin }) =>
      asAdmin("admin:technicians", { paginationOpts: { numItems: 24, cursor: null } }),
  ],
  [
    "admin:technicians {city} (admin, 24/page)",
    ({ asAdmin }) =>
      asAdmin("admin:technicians", {
        city: "kathmandu",
        paginationOpts: { numItems: 24, cursor: null },
      }),
  ],
];

export type QueryFigure = { medianMs: number; documentsRead: number; results: number };
export type QueriesResult = {
  pros: number;
  bookings: number;
  seedMs: number;
  calls: { name: string; scale: QueryFigure; empty: QueryFigure }[];
};

async function measure(
  db: Db,
  call: (db: Db) => Promise<unknown>,
  repeats: number,
): Promise<QueryFigure> {
  const times: number[] = [];
  let documentsRead = 0;
  let results = 0;
  for (let i = 0; i < repeats + 2; i++) {
    last = null;
    const t0 = performance.now();
    const result = await call(db);
    const ms = performance.now() - t0;
    if (i >= 2) times.push(ms); // two warm-up calls
    documentsRead = last ? (last as Metrics).documentsRead : NaN;
    results = Array.isArray(result)
      ? result.length
      : ((result as { page?: unknown[] }).page?.length ?? 0);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)], documentsRead, results };
}

export async function queries({
  pros = 5000,
  bookings = 50_000,
  repeats = 15,
} = {}): Promise<QueriesResult> {
  instrument();
  const t0 = performance.now();
  const scale = await seeded(pros, bookings);
  const seedMs = performance.now() - t0;
  const empty = await seeded(0, 0);
  const calls = [];
  for (const [name, call] of CALLS) {
    calls.push({
      name,
      scale: await measure(scale, call, repeats),
      empty: await measure(empty, call, repeats),
    });
  }
  await scale.close();
  await empty.close();
  return { pros, bookings, seedMs, calls };
}
