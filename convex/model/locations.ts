import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { CitySlug, SpecialtySlug } from "../validators";
import { ACTIVE_STATUSES } from "../rules/bookingLifecycle";
import { professionalOfUser } from "./professionalOfUser";
import { specialtyName } from "./catalog";
import { isValidPosition, roundToGrid } from "./geo";
import { fail } from "./errors";
import { ensureMarker, removeMarker, UNNAMED } from "./mapMarkers";
import { syncSpot } from "./dispatchSpots";

/** One position write per professional per second at most (phones can fire watchPosition faster). */
export const MIN_WRITE_INTERVAL_MS = 1000;
/** Positions older than this are deleted by the `sweepStaleLocations` cron, so the table holds only live ones. */
export const LIVE_WINDOW_MS = 10 * 60 * 1000;
const MAX_MARKERS = 300;
const SWEEP_BATCH = 500;

export async function update(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  args: { longitude: number; latitude: number; accuracy?: number },
): Promise<void> {
  if (!isValidPosition(args.longitude, args.latitude)) {
    fail(
      "INVALID_LOCATION",
      "Longitude must be between -180 and 180 and latitude between -90 and 90.",
    );
  }
  if (args.accuracy !== undefined && !(Number.isFinite(args.accuracy) && args.accuracy >= 0)) {
    fail("INVALID_LOCATION", "Accuracy must be a distance of 0 metres or more.");
  }
  const pro = await professionalOfUser(ctx, viewer._id);
  if (pro === null) fail("NOT_FOUND", "Your professional profile was not found.");
  await writePosition(
    ctx,
    pro,
    { lat: args.latitude, lng: args.longitude, accuracy: args.accuracy },
    MIN_WRITE_INTERVAL_MS,
  );
}

/**
 * Sets `pro`'s live position (one row per professional, with what its marker shows); refuses a write
 * sooner than `minIntervalMs` after the previous one.
 */
export async function writePosition(
  ctx: MutationCtx,
  pro: Doc<"professionals">,
  at: { lat: number; lng: number; accuracy?: number },
  minIntervalMs = 0,
) {
  const now = Date.now();
  const row = await positionOf(ctx, pro._id);
  if (row !== null && now - row.updatedAt < minIntervalMs) {
    fail("RATE_LIMITED", "Location updates are limited to one per second.");
  }
  const { name, listed } = await ensureMarker(ctx, pro);
  const fields = {
    professionalId: pro._id,
    city: pro.city,
    specialty: pro.specialty,
    lng: at.lng,
    lat: at.lat,
    accuracy: at.accuracy,
    updatedAt: now,
    name,
    listed,
  };
  if (row === null) {
    await ctx.db.insert("liveLocations", fields);
  } else {
    await ctx.db.replace("liveLocations", row._id, fields);
  }
  await syncSpot(ctx, pro._id, { lat: at.lat, lng: at.lng });
}

/** Which markers are exact: all of them (admins, who also see unverified and unavailable professionals), or these. */
type Precision = { admin: boolean; exact: ReadonlySet<Id<"professionals">> };
const ROUNDED: Precision = { admin: false, exact: new Set() };

/** The viewer's active bookings, newest first (their 50 most recent bookings are looked at). */
async function activeBookingsOf(ctx: QueryCtx, viewer: Doc<"users">): Promise<Doc<"bookings">[]> {
  const recent = await ctx.db
    .query("bookings")
    .withIndex("by_customerId", (q) => q.eq("customerId", viewer._id))
    .order("desc")
    .take(50);
  return recent.filter((b) => ACTIVE_STATUSES.includes(b.status));
}

/** The HTTP API's precision for a viewer: exact for admins, the professional themself and the customer of an active booking. */
async function precisionFor(ctx: QueryCtx, viewer: Doc<"users"> | null): Promise<Precision> {
  if (viewer === null) return ROUNDED;
  if (viewer.role === "admin") return { admin: true, exact: new Set() };
  const exact = new Set<Id<"professionals">>();
  if (viewer.role === "professional") {
    const own = await professionalOfUser(ctx, viewer._id);
    if (own !== null) exact.add(own._id);
  }
  if (viewer.role === "customer") {
    for (const b of await activeBookingsOf(ctx, viewer)) exact.add(b.professionalId);
  }
  return { admin: false, exact };
}

/**
 * Whether `viewer` may know where a professional exactly is: their exact position, and (model/
 * professionals.ts) their address, zip code and phone. The rule of the HTTP markers' precision.
 */
export async function seesExactly(
  ctx: QueryCtx,
  viewer: Doc<"users"> | null,
  professionalId: Id<"professionals">,
): Promise<boolean> {
  const { admin, exact } = await precisionFor(ctx, viewer);
  return admin || exact.has(professionalId);
}

type Filter = { city?: CitySlug; specialty?: SpecialtySlug };

/**
 * The listed professionals on the map (their `mapMarkers` rows), most recently come online first:
 * one read per marker, and no position, so position writes never touch what this reads.
 */
async function listed(ctx: QueryCtx, { city, specialty }: Filter) {
  return await (
    specialty !== undefined
      ? ctx.db.query("mapMarkers").withIndex("by_listed_and_specialty_and_city", (q) => {
          const bySpecialty = q.eq("listed", true).eq("specialty", specialty);
          return city === undefined ? bySpecialty : bySpecialty.eq("city", city);
        })
      : ctx.db.query("mapMarkers").withIndex("by_listed_and_city", (q) => {
          const listedOnly = q.eq("listed", true);
          return city === undefined ? listedOnly : listedOnly.eq("city", city);
        })
  )
    .order("desc")
    .take(MAX_MARKERS);
}

/** Who is on the map: the same for every caller, changed only when someone comes, goes or edits their profile. */
export async function onMap(ctx: QueryCtx, filter: Filter) {
  return (await listed(ctx, filter)).map((m) => ({
    professionalId: m.professionalId,
    name: m.name,
    specialty: m.specialty,
    specialtyName: specialtyName(m.specialty),
  }));
}

async function positionOf(ctx: QueryCtx, professionalId: Id<"professionals">) {
  return await ctx.db
    .query("liveLocations")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
    .unique();
}

/**
 * A listed professional's marker position, rounded to ~500 m for everyone (null when not on the
 * map): its result changes only when the professional crosses into another grid cell, so the
 * position writes in between send nothing to the map's subscribers.
 */
export async function marker(ctx: QueryCtx, professionalId: Id<"professionals">) {
  const live = await positionOf(ctx, professionalId);
  return live === null || live.listed !== true
    ? null
    : { lat: roundToGrid(live.lat), lng: roundToGrid(live.lng) };
}

/**
 * onMap's markers with their rounded positions, in one result (the map subscribes to the two apart),
 * most recently come online first: one read per marker, of the position rows (which carry the name
 * and listing).
 */
export async function current(ctx: QueryCtx, { city, specialty }: Filter) {
  const rows = await (
    specialty !== undefined
      ? ctx.db.query("liveLocations").withIndex("by_listed_and_specialty_and_city", (q) => {
          const bySpecialty = q.eq("listed", true).eq("specialty", specialty);
          return city === undefined ? bySpecialty : bySpecialty.eq("city", city);
        })
      : ctx.db.query("liveLocations").withIndex("by_listed_and_city", (q) => {
          const listedOnly = q.eq("listed", true);
          return city === undefined ? listedOnly : listedOnly.eq("city", city);
        })
  )
    .order("desc")
    .take(MAX_MARKERS);
  return rows.map((r) => ({
    professionalId: r.professionalId,
    name: r.name ?? UNNAMED,
    specialty: r.specialty,
    specialtyName: specialtyName(r.specialty),
    city: r.city,
    lat: roundToGrid(r.lat),
    lng: roundToGrid(r.lng),
    exact: false,
  }));
}

/**
 * The HTTP API's markers (GET /api/current-locations, GET /api/technicians), newest position first:
 * one-off reads, so they may depend on the token's viewer — exact for admins (unverified and
 * unavailable included), for the professional themself and for the customer of an active booking;
 * rounded otherwise.
 */
export async function currentFor(ctx: QueryCtx, viewer: Doc<"users"> | null, filter: Filter) {
  const { admin, exact } = await precisionFor(ctx, viewer);
  const { city, specialty } = filter;
  const rows = await (
    specialty !== undefined
      ? ctx.db.query("liveLocations").withIndex("by_specialty_and_city_and_updatedAt", (q) => {
          const bySpecialty = q.eq("specialty", specialty);
          return city === undefined ? bySpecialty : bySpecialty.eq("city", city);
        })
      : city !== undefined
        ? ctx.db
            .query("liveLocations")
            .withIndex("by_city_and_updatedAt", (q) => q.eq("city", city))
        : ctx.db.query("liveLocations").withIndex("by_updatedAt")
  )
    .order("desc")
    .take(MAX_MARKERS);
  // a row without a listing predates the copy: off the map until its next write, for admins too
  return rows
    .filter((r) => (admin ? r.listed !== undefined : r.listed === true))
    .map((r) => {
      const precise = admin || exact.has(r.professionalId);
      return {
        professionalId: r.professionalId,
        name: r.name ?? UNNAMED,
        specialty: r.specialty,
        specialtyName: specialtyName(r.specialty),
        city: r.city,
        lat: precise ? r.lat : roundToGrid(r.lat),
        lng: precise ? r.lng : roundToGrid(r.lng),
        exact: precise,
        updatedAt: r.updatedAt,
      };
    });
}

/** One of currentFor's markers as GET /api/current-locations' `Technicians` item (spec §7: `_id`, `currentLocation`). */
export function apiTechnician(m: Awaited<ReturnType<typeof currentFor>>[number]) {
  return {
    _id: m.professionalId,
    name: m.name,
    specialty: m.specialty,
    currentLocation: { type: "Point", coordinates: [m.lng, m.lat] },
    exact: m.exact,
    updatedAt: m.updatedAt,
  };
}

/**
 * Exact positions of the professionals of the customer's active bookings (forBooking's rule, for all
 * of them at once). Reads only the customer's bookings and those professionals' rows, so a position
 * write re-runs it only for that professional's customers.
 */
export async function forActiveBookings(ctx: QueryCtx, viewer: Doc<"users">) {
  const active = await activeBookingsOf(ctx, viewer);
  const positions = await Promise.all(
    active.map(async (b) => {
      const row = await positionOf(ctx, b.professionalId);
      return row === null
        ? null
        : {
            bookingId: b._id,
            professionalId: b.professionalId,
            lat: row.lat,
            lng: row.lng,
            updatedAt: row.updatedAt,
          };
    }),
  );
  return positions.filter((p) => p !== null);
}

/** Live tracking for one booking: the customer while the job is active; its professional and admins always. */
export async function forBooking(ctx: QueryCtx, viewer: Doc<"users">, bookingId: Id<"bookings">) {
  const booking = await ctx.db.get("bookings", bookingId);
  // someone else's booking answers as a missing one
  if (booking === null) return null;
  const isCustomer = viewer._id === booking.customerId;
  if (!isCustomer && viewer._id !== booking.professionalUserId && viewer.role !== "admin")
    return null;
  if (isCustomer && !ACTIVE_STATUSES.includes(booking.status)) return null;
  const row = await positionOf(ctx, booking.professionalId);
  return row === null ? null : { lat: row.lat, lng: row.lng, updatedAt: row.updatedAt };
}

/** Deletes positions older than the live window; returns whether more remain to sweep. */
export async function sweepStale(ctx: MutationCtx, now: number): Promise<boolean> {
  const stale = await ctx.db
    .query("liveLocations")
    .withIndex("by_updatedAt", (q) => q.lt("updatedAt", now - LIVE_WINDOW_MS))
    .take(SWEEP_BATCH);
  for (const row of stale) {
    await ctx.db.delete("liveLocations", row._id);
    await removeMarker(ctx, row.professionalId);
  }
  return stale.length === SWEEP_BATCH;
}
