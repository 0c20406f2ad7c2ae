/**
 * "Nearest available now" (model/dispatchSpots.ts nearestAvailable, through dispatch:nearest): the
 * DISPATCH.batch nearest electricians to a pin in a city of 5,000 electricians, spread over a
 * 12 km × 12 km square around the centre, against the same call in a city with 50, in the same
 * backend and run. Median wall time over repeated calls through the engine (no network), documents
 * read per call, and how many the whole city would be if it were scanned.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Id } from "../../convex/_generated/dataModel";
import type { MutationCtx } from "../../convex/_generated/server";
import { CITIES, type CitySlug } from "../../convex/constants";
import { cellOf } from "../../convex/model/geo";
import { DISPATCH } from "../../convex/rules/dispatch";
import { searchRankOf } from "../../convex/rules/searchRank";
import { TransactionMetrics } from "../../local-backend/engine/transaction-metrics";
import { startBackend } from "../../local-backend/server";
import { APP_CONVEX_DIR } from "../lib/backend";

const PROFILE = {
  verification: { status: "verified" as const },
  rating: { sum: 0, count: 0 },
  available: true,
};
/** Half the square's side, in degrees (~6 km). */
const SPREAD = 0.055;
const BATCH = 500;

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

export type NearestFigure = {
  professionals: number;
  medianMs: number;
  documentsRead: number;
  found: number;
};
export type NearestResult = { big: NearestFigure; small: NearestFigure };

export async function nearest({
  big = 5000,
  small = 50,
  repeats = 31,
} = {}): Promise<NearestResult> {
  instrument();
  const dataDir = mkdtempSync(path.join(tmpdir(), "gharsewa-bench-nearest-"));
  const backend = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir: APP_CONVEX_DIR });
  const run = <T>(fn: (ctx: MutationCtx) => Promise<T>) =>
    backend.engine.t.run(fn as never) as Promise<T>;
  try {
    const document = await run((ctx) =>
      (ctx.storage as unknown as { store(b: Blob): Promise<Id<"_storage">> }).store(
        new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]),
      ),
    );
    // a fixed pseudo-random spread, the same every run
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const populate = async (city: CitySlug, count: number) => {
      const centre = CITIES.find((c) => c.slug === city)!;
      for (let done = 0; done < count; done += BATCH) {
        await run(async (ctx) => {
          for (let i = done; i < Math.min(count, done + BATCH); i++) {
            const userId = await ctx.db.insert("users", {
              name: `Electrician ${i}`,
              role: "professional",
            });
            const professionalId = await ctx.db.insert("professionals", {
              userId,
              specialty: "electrician",
              city,
              state: "Bagmati",
              locations: [],
              documents: {
                citizenshipFront: document,
                citizenshipBack: document,
                trainingCertificate: document,
              },
              ...PROFILE,
              searchRank: searchRankOf(PROFILE),
            });
            const lat = centre.lat + (random() * 2 - 1) * SPREAD;
            const lng = centre.lng + (random() * 2 - 1) * SPREAD;
            await ctx.db.insert("dispatchSpots", {
              professionalId,
              specialty: "electrician",
              city,
              lat,
              lng,
              cell: cellOf(lat, lng),
              live: true,
              eligible: true,
            });
          }
        });
      }
    };
    await populate("kathmandu", big);
    await populate("pokhara", small);

    const measure = async (city: CitySlug, professionals: number): Promise<NearestFigure> => {
      const centre = CITIES.find((c) => c.slug === city)!;
      // a pin ~1.5 km off the centre, as a customer's home would be
      const pin = { lat: centre.lat + 0.01, lng: centre.lng + 0.01 };
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < repeats + 3; i++) {
        const t0 = performance.now();
        const result = (
          await backend.engine.call(
            "query",
            "dispatch:nearest",
            { specialty: "electrician", city, pin, limit: DISPATCH.batch },
            { identity: null, admin: true },
          )
        ).value as { ids: string[]; reads: number };
        if (i >= 3) times.push(performance.now() - t0); // three warm-up calls
        found = result.ids.length;
      }
      times.sort((a, b) => a - b);
      return {
        professionals,
        medianMs: times[Math.floor(times.length / 2)],
        documentsRead,
        found,
      };
    };
    return { big: await measure("kathmandu", big), small: await measure("pokhara", small) };
  } finally {
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
