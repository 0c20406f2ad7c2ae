/**
 * The `mapMarkers` row of a live professional: what their marker shows (name, specialty, city) and
 * whether everyone may see it, copied from `professionals` and `users` so the map's queries read one
 * row per marker. Every writer of those fields calls `refreshMarker`; `ensureMarker` runs on each
 * position write, which also creates the rows of positions written before this table existed. The
 * name and listing are also on the professional's `liveLocations` row (locations:current reads only
 * those rows): the position write copies them, `refreshMarker` keeps them.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { leaveOffers } from "./dispatch";
import { syncSpot } from "./dispatchSpots";

/** Whether a professional's marker is shown to everyone. */
export function listedOnMap(pro: Doc<"professionals">, user: Doc<"users"> | null): boolean {
  return (
    pro.verification.status === "verified" &&
    pro.available &&
    user !== null &&
    user.suspended === undefined
  );
}

async function fieldsOf(ctx: QueryCtx, pro: Doc<"professionals">) {
  const user = await ctx.db.get("users", pro.userId);
  return {
    professionalId: pro._id,
    city: pro.city,
    specialty: pro.specialty,
    name: user?.name ?? UNNAMED,
    listed: listedOnMap(pro, user),
  };
}

/** The name a marker shows for a professional without one. */
export const UNNAMED = "Professional";

export async function markerOf(ctx: QueryCtx, professionalId: Id<"professionals">) {
  return await ctx.db
    .query("mapMarkers")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
    .unique();
}

/**
 * Creates `pro`'s marker row if it has none; keeps its city and specialty (read from `pro`) current.
 * Returns what the position row copies: the marker's name and listing.
 */
export async function ensureMarker(
  ctx: MutationCtx,
  pro: Doc<"professionals">,
): Promise<{ name: string; listed: boolean }> {
  const row = await markerOf(ctx, pro._id);
  if (row === null) {
    // the caller's copy may predate a write of this transaction (seed verifies, then places)
    const current = await ctx.db.get("professionals", pro._id);
    if (current === null) return { name: UNNAMED, listed: false };
    const fields = await fieldsOf(ctx, current);
    await ctx.db.insert("mapMarkers", fields);
    return fields;
  }
  if (row.city !== pro.city || row.specialty !== pro.specialty) {
    await ctx.db.patch("mapMarkers", row._id, { city: pro.city, specialty: pro.specialty });
  }
  return row;
}

/**
 * Copies a professional's current name, specialty, city and listing onto their marker row (and the
 * name and listing onto their position row), if they are on the map; writes nothing when nothing
 * changed (a write would re-run every map of the city). Their dispatch spot follows too.
 */
export async function refreshMarker(ctx: MutationCtx, professionalId: Id<"professionals">) {
  await syncDispatch(ctx, professionalId);
  const row = await markerOf(ctx, professionalId);
  if (row === null) return;
  const pro = await ctx.db.get("professionals", professionalId);
  if (pro === null) {
    await ctx.db.delete("mapMarkers", row._id);
    return;
  }
  const fields = await fieldsOf(ctx, pro);
  if (
    row.city !== fields.city ||
    row.specialty !== fields.specialty ||
    row.name !== fields.name ||
    row.listed !== fields.listed
  ) {
    await ctx.db.replace("mapMarkers", row._id, fields);
    const live = await ctx.db
      .query("liveLocations")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
      .unique();
    if (live !== null && (live.name !== fields.name || live.listed !== fields.listed))
      await ctx.db.patch("liveLocations", live._id, { name: fields.name, listed: fields.listed });
  }
}

/** The professional's position row was deleted: off the map, and dispatched from home if online. */
export async function removeMarker(ctx: MutationCtx, professionalId: Id<"professionals">) {
  await syncDispatch(ctx, professionalId, null);
  const row = await markerOf(ctx, professionalId);
  if (row !== null) await ctx.db.delete("mapMarkers", row._id);
}

/**
 * The dispatch spot follows; a professional no longer dispatchable (offline, unavailable, suspended,
 * unverified) leaves their open offers at once, which go on to the next nearest.
 */
async function syncDispatch(
  ctx: MutationCtx,
  professionalId: Id<"professionals">,
  live?: null,
): Promise<void> {
  if (await syncSpot(ctx, professionalId, live)) return;
  const pro = await ctx.db.get("professionals", professionalId);
  if (pro !== null) await leaveOffers(ctx, pro.userId);
}
