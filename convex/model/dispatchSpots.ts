/**
 * Where each professional is for "nearest available now": one `dispatchSpots` row per professional,
 * at their live position while they share one (liveLocations), else at their home city's centre,
 * with the grid cell of model/geo.ts and whether customers may be offered to them. Kept by the
 * position writes (model/locations.ts), by going online and offline (model/presence.ts) and by
 * `refreshMarker`, which every writer of verification, availability and suspension calls.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { CitySlug, SpecialtySlug } from "../validators";
import { CITIES } from "../constants";
import { bookability } from "../rules/bookability";
import { distanceMetres, type Pin } from "../rules/pin";
import { DISPATCH } from "../rules/dispatch";
import { cellOf, MIN_CELL_METRES, ringCells } from "./geo";

/** A live position closer than this to the stored one is not written again. */
const MOVE_METRES = 50;

export function homeOf(pro: Doc<"professionals">): Pin {
  const c = CITIES.find((x) => x.slug === pro.city) ?? CITIES[0];
  return { lat: c.lat, lng: c.lng };
}

export async function spotOf(ctx: QueryCtx, professionalId: Id<"professionals">) {
  return await ctx.db
    .query("dispatchSpots")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
    .unique();
}

/**
 * Whether a professional may be offered requests: the bookability rule, an account in good standing,
 * and online now (model/presence.ts): a request "now" goes to someone who is there to answer it.
 */
export function dispatchable(
  pro: Doc<"professionals">,
  user: Doc<"users"> | null,
  online: boolean,
): boolean {
  return (
    online &&
    user !== null &&
    user.suspended === undefined &&
    bookability({ verified: pro.verification.status === "verified", available: pro.available })
      .bookable
  );
}

/** The professional's presence row says online (read here: model/presence.ts syncs the spot). */
async function isOnline(ctx: QueryCtx, pro: Doc<"professionals">): Promise<boolean> {
  const row = await ctx.db
    .query("presence")
    .withIndex("by_userId", (q) => q.eq("userId", pro.userId))
    .unique();
  return row?.online ?? false;
}

/**
 * Brings a professional's spot up to date. `live`: their new live position, null once they stopped
 * sharing one; left out, it is read from their liveLocations row. Returns whether they may be
 * offered requests now.
 */
export async function syncSpot(
  ctx: MutationCtx,
  professionalId: Id<"professionals">,
  live?: Pin | null,
): Promise<boolean> {
  const [pro, row] = await Promise.all([
    ctx.db.get("professionals", professionalId),
    spotOf(ctx, professionalId),
  ]);
  if (pro === null) {
    if (row !== null) await ctx.db.delete("dispatchSpots", row._id);
    return false;
  }
  if (live === undefined) {
    const position = await ctx.db
      .query("liveLocations")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
      .unique();
    live = position === null ? null : { lat: position.lat, lng: position.lng };
  }
  const at = live ?? homeOf(pro);
  const fields = {
    professionalId,
    specialty: pro.specialty,
    city: pro.city,
    lat: at.lat,
    lng: at.lng,
    cell: cellOf(at.lat, at.lng),
    live: live !== null,
    eligible: dispatchable(pro, await ctx.db.get("users", pro.userId), await isOnline(ctx, pro)),
  };
  if (row === null) {
    await ctx.db.insert("dispatchSpots", fields);
    return fields.eligible;
  }
  const same =
    row.specialty === fields.specialty &&
    row.city === fields.city &&
    row.cell === fields.cell &&
    row.live === fields.live &&
    row.eligible === fields.eligible &&
    distanceMetres(row, at) < MOVE_METRES;
  if (!same) await ctx.db.replace("dispatchSpots", row._id, fields);
  return fields.eligible;
}

export type Candidate = { spot: Doc<"dispatchSpots">; distance: number };

/**
 * The `limit` nearest dispatchable professionals of a specialty in a city, nearest first, leaving out
 * `exclude`: grid rings are read outwards from the pin through the index, each cell up to what could
 * still be needed, and the search stops once the `limit`-th nearest found is closer than anything in
 * an unread ring could be. Past DISPATCH.maxRing (a sparse city) the city's first DISPATCH.cityCap
 * spots are read instead. `reads` counts the documents read.
 */
export async function nearestAvailable(
  ctx: QueryCtx,
  args: {
    specialty: SpecialtySlug;
    city: CitySlug;
    pin: Pin;
    limit: number;
    exclude: ReadonlySet<Id<"professionals">>;
  },
): Promise<{ found: Candidate[]; reads: number }> {
  const { specialty, city, pin, limit, exclude } = args;
  const found: Candidate[] = [];
  let reads = 0;
  const perCell = limit + exclude.size;
  const take = (rows: Doc<"dispatchSpots">[]) => {
    reads += rows.length;
    for (const spot of rows) {
      if (!exclude.has(spot.professionalId))
        found.push({ spot, distance: distanceMetres(pin, spot) });
    }
  };
  const sorted = () => found.sort((a, b) => a.distance - b.distance).slice(0, limit);
  for (let r = 0; r <= DISPATCH.maxRing; r++) {
    const rows = await Promise.all(
      ringCells(pin.lat, pin.lng, r).map((cell) =>
        ctx.db
          .query("dispatchSpots")
          .withIndex("by_eligible_and_specialty_and_city_and_cell", (q) =>
            q.eq("eligible", true).eq("specialty", specialty).eq("city", city).eq("cell", cell),
          )
          .take(perCell),
      ),
    );
    rows.forEach(take);
    const best = sorted();
    if (best.length === limit && best[limit - 1].distance <= r * MIN_CELL_METRES)
      return { found: best, reads };
  }
  // few professionals near the pin: the city's own, wherever they are
  found.length = 0;
  take(
    await ctx.db
      .query("dispatchSpots")
      .withIndex("by_eligible_and_specialty_and_city_and_cell", (q) =>
        q.eq("eligible", true).eq("specialty", specialty).eq("city", city),
      )
      .take(DISPATCH.cityCap + exclude.size),
  );
  return { found: sorted(), reads };
}
