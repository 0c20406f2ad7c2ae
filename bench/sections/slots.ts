/**
 * Free slots (bookings:freeSlots, rules/schedule.ts freeSlots) of a one-hour job: a professional with 200 future
 * bookings, all inside the 7 days the dialog shows (the worst case: every one is read), against
 * the same call for a professional with none, in the same backend and run. Median wall time over
 * repeated calls through the engine (no network) and documents read per call.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Id } from "../../convex/_generated/dataModel";
import type { MutationCtx } from "../../convex/_generated/server";
import { upsertCatalog } from "../../convex/model/catalog";
import { searchRankOf } from "../../convex/rules/searchRank";
import { TransactionMetrics } from "../../local-backend/engine/transaction-metrics";
import type { Identity } from "../../local-backend/engine/engine";
import { startBackend } from "../../local-backend/server";
import { APP_CONVEX_DIR } from "../lib/backend";

const HOUR = 3_600_000;
const PROFILE = {
  verification: { status: "verified" as const },
  rating: { sum: 0, count: 0 },
  available: true,
};
const HOURS = { days: [0, 1, 2, 3, 4, 5], start: 7 * 60, end: 19 * 60 };

let documentsRead = NaN;
let instrumented = false;
function instrument() {
  if (instrumented) return;
  instrumented = true;
  const original = TransactionMetrics.prototype.rollback;
  TransactionMetrics.prototype.rollback = function (this: TransactionMetrics) {
    documentsRead = this.getTransactionMetrics().documentsRead.used;
    return original.call(this);
  };
}

export type SlotsFigure = { medianMs: number; documentsRead: number; slots: number };
export type SlotsResult = { bookings: number; busy: SlotsFigure; idle: SlotsFigure };

export async function slots({ bookings = 200, repeats = 31 } = {}): Promise<SlotsResult> {
  instrument();
  const dataDir = mkdtempSync(path.join(tmpdir(), "gharsewa-bench-slots-"));
  const backend = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir: APP_CONVEX_DIR });
  const run = <T>(fn: (ctx: MutationCtx) => Promise<T>) =>
    backend.engine.t.run(fn as never) as Promise<T>;
  try {
    await run((ctx) => upsertCatalog(ctx));
    const document = await run((ctx) =>
      (ctx.storage as unknown as { store(b: Blob): Promise<Id<"_storage">> }).store(
        new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]),
      ),
    );
    const professional = (name: string) =>
      run(async (ctx) => {
        const userId = await ctx.db.insert("users", { name, role: "professional" });
        const professionalId = await ctx.db.insert("professionals", {
          userId,
          specialty: "electrician",
          city: "kathmandu",
          state: "Bagmati",
          locations: [],
          documents: {
            citizenshipFront: document,
            citizenshipBack: document,
            trainingCertificate: document,
          },
          workingHours: HOURS,
          ...PROFILE,
          searchRank: searchRankOf(PROFILE),
        });
        return { userId, professionalId };
      });
    const [busy, idle] = [await professional("Busy"), await professional("Idle")];
    const customerId = await run((ctx) =>
      ctx.db.insert("users", { name: "Customer", role: "customer" }),
    );
    const otherId = await run((ctx) => ctx.db.insert("users", { name: "Other", role: "customer" }));
    const service = await run(
      async (ctx) =>
        (await ctx.db
          .query("services")
          .withIndex("by_category_and_name", (q) => q.eq("category", "electrical"))
          .first())!,
    );
    // a one-hour job: it fits some of the gaps the bookings leave
    await run((ctx) => ctx.db.patch("services", service._id, { jobMinutes: 60 }));
    const now = Math.floor(Date.now() / (30 * 60_000)) * 30 * 60_000;
    await run(async (ctx) => {
      for (let i = 0; i < bookings; i++) {
        await ctx.db.insert("bookings", {
          customerId: otherId,
          professionalId: busy.professionalId,
          professionalUserId: busy.userId,
          services: [
            { id: service._id, name: service.name, category: service.category, price: 500 },
          ],
          address: "Bench Road",
          city: "kathmandu",
          // spread over the 7 days shown: requests, accepted jobs and cancelled ones (read, not holding)
          scheduledFor: now + HOUR + Math.floor((i * 7 * 24 * HOUR) / bookings),
          jobMinutes: 30,
          price: 500,
          status: (["requested", "accepted", "cancelled", "expired"] as const)[i % 4],
          updatedAt: now,
        });
      }
    });
    const sessionId = await run((ctx) =>
      ctx.db.insert("authSessions", { userId: customerId, expirationTime: Date.now() + HOUR }),
    );
    const identity: Identity = {
      subject: `${customerId}|${sessionId}`,
      issuer: "bench",
      tokenIdentifier: `bench|${customerId}|${sessionId}`,
    };
    const measure = async (professionalId: Id<"professionals">): Promise<SlotsFigure> => {
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < repeats + 3; i++) {
        const t0 = performance.now();
        const result = (
          await backend.engine.call(
            "query",
            "bookings:freeSlots",
            { professionalId, serviceIds: [service._id], now },
            { identity },
          )
        ).value as { slots: number[] };
        if (i >= 3) times.push(performance.now() - t0); // three warm-up calls
        found = result.slots.length;
      }
      times.sort((a, b) => a - b);
      return { medianMs: times[Math.floor(times.length / 2)], documentsRead, slots: found };
    };
    return {
      bookings,
      busy: await measure(busy.professionalId),
      idle: await measure(idle.professionalId),
    };
  } finally {
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
