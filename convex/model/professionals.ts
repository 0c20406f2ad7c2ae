/** Professional profiles: public cards, search ranking, the owner's dashboard view, the admin view, verification. */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { CITIES, type CitySlug, type SpecialtySlug } from "../validators";
import { cityName, priceIn, servicesOf, specialtyCategory, specialtyName } from "./catalog";
import { roundToGrid } from "./geo";
import { seesExactly } from "./locations";
import { photoUrlOf, urlOf } from "./files";
import { notify } from "./notifications";
import { refreshMarker } from "./mapMarkers";
import { fail } from "./errors";
import { inGoodStanding } from "./users";
import { updateProfessional } from "./professionalUpdate";
import { RANK_TIER, ratingOf, searchRankOf } from "../rules/searchRank";
import { isOnline } from "./presence";
import { isVerified } from "./contactVerification";

/** Profiles read per search at most (one specialty in one city); results returned. */
const SEARCH_SCAN = 500;
const SEARCH_RESULTS = 100;

export type Point = { lat: number; lng: number };

export function cityCentre(city: CitySlug): Point {
  const c = CITIES.find((x) => x.slug === city)!;
  return { lat: c.lat, lng: c.lng };
}

/** Great-circle distance in km, rounded to 0.1 km. */
export function distanceKm(a: Point, b: Point): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(h)) * 10) / 10;
}

/**
 * Where a professional is for distance ranking: the live position on the public ~500 m grid (the
 * exact one would leak through distances), else the centre of their city.
 */
async function approximatePosition(ctx: QueryCtx, pro: Doc<"professionals">): Promise<Point> {
  const live = await ctx.db
    .query("liveLocations")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
    .unique();
  return live === null
    ? cityCentre(pro.city)
    : { lat: roundToGrid(live.lat), lng: roundToGrid(live.lng) };
}

/** The lowest catalogue price of the specialty's category in a city, if it is offered there. */
export async function priceFrom(
  ctx: QueryCtx,
  specialty: SpecialtySlug,
  city: CitySlug,
): Promise<number | undefined> {
  const prices = (await servicesOf(ctx, specialtyCategory(specialty)))
    .map((s) => priceIn(s, city))
    .filter((p): p is number => p !== null);
  return prices.length === 0 ? undefined : Math.min(...prices);
}

/** The public card of a professional (no contact details, no documents). */
export async function card(
  ctx: QueryCtx,
  pro: Doc<"professionals">,
  extra: { distanceKm?: number; priceFrom?: number } = {},
  /** The professional's user, when the caller has read it already. */
  user?: Doc<"users"> | null,
) {
  user ??= await ctx.db.get("users", pro.userId);
  return {
    _id: pro._id,
    name: user?.name ?? "Professional",
    photoUrl: await photoUrlOf(ctx, user),
    specialty: pro.specialty,
    specialtyName: specialtyName(pro.specialty),
    city: pro.city,
    cityName: cityName(pro.city),
    verified: pro.verification.status === "verified",
    rating: ratingOf(pro),
    available: pro.available,
    onHold: pro.noShowHold !== undefined,
    workingHours: pro.workingHours ?? null,
    ...(extra.distanceKm !== undefined ? { distanceKm: extra.distanceKm } : {}),
    ...(extra.priceFrom !== undefined ? { priceFrom: extra.priceFrom } : {}),
  };
}
export type ProfessionalCard = Awaited<ReturnType<typeof card>>;

/** How many profiles `hasBookableIn` reads at most (legacy rank-less or suspended ones come first). */
const BOOKABLE_SCAN = 20;

/**
 * Whether customers can book some professional of `specialty` in `city` now: verified, available and
 * in good standing. Reads only the bookable tier of the search index.
 */
export async function hasBookableIn(
  ctx: QueryCtx,
  specialty: SpecialtySlug,
  city: CitySlug,
): Promise<boolean> {
  const tier = ctx.db
    .query("professionals")
    .withIndex("by_specialty_and_city_and_searchRank", (q) =>
      q.eq("specialty", specialty).eq("city", city).lt("searchRank", RANK_TIER),
    );
  for (const pro of await tier.take(BOOKABLE_SCAN)) {
    if (pro.verification.status !== "verified" || !pro.available || pro.noShowHold !== undefined)
      continue;
    if (inGoodStanding(await ctx.db.get("users", pro.userId))) return true;
  }
  return false;
}

type Ranked = {
  pro: Doc<"professionals">;
  user: Doc<"users">;
  rank: number;
  distance: number | undefined;
};

/**
 * Professionals of one specialty in one city (rejected ones left out): verified and available
 * first, then by rating, then by distance from `near` when given, then oldest profile first. Reads
 * in `searchRank` order, so about as many profiles as it returns however many there are: only with
 * `near` does it read on through the profiles ranked like the last one returned (distance orders them).
 * Profiles written before `searchRank` existed have none (they come first in the index) and are
 * ranked here until their next update.
 */
export async function search(
  ctx: QueryCtx,
  args: { specialty: SpecialtySlug; city: CitySlug; near?: Point },
): Promise<ProfessionalCard[]> {
  const near = args.near;
  const found: Ranked[] = [];
  let fromIndex = 0;
  let lastRank = -1;
  let read = 0;
  for await (const pro of ctx.db
    .query("professionals")
    .withIndex("by_specialty_and_city_and_searchRank", (q) =>
      q.eq("specialty", args.specialty).eq("city", args.city),
    )) {
    const rank = pro.searchRank ?? searchRankOf(pro);
    if (pro.searchRank !== undefined) {
      const enough = fromIndex >= SEARCH_RESULTS && (near === undefined || rank > lastRank);
      if (enough || pro.verification.status === "rejected") break;
    }
    if (++read > SEARCH_SCAN) break;
    if (pro.verification.status === "rejected") continue;
    const user = await ctx.db.get("users", pro.userId);
    if (!inGoodStanding(user)) continue;
    if (pro.searchRank !== undefined) {
      fromIndex++;
      lastRank = rank;
    }
    const distance =
      near === undefined ? undefined : distanceKm(near, await approximatePosition(ctx, pro));
    found.push({ pro, user, rank, distance });
  }
  found.sort(
    (a, b) =>
      a.rank - b.rank ||
      (a.distance ?? 0) - (b.distance ?? 0) ||
      a.pro._creationTime - b.pro._creationTime,
  );
  const price = await priceFrom(ctx, args.specialty, args.city);
  return await Promise.all(
    found
      .slice(0, SEARCH_RESULTS)
      .map((r) => card(ctx, r.pro, { distanceKm: r.distance, priceFrom: price }, r.user)),
  );
}

/**
 * A professional's profile by id, for `viewer`. Profiles not (or no longer) verified are shown only to
 * their owner and admins: to anyone else they are missing, like an id that does not exist. Everyone
 * sees the cities served; the address, zip code and phone only those who may know where the
 * professional exactly is (model/locations.ts seesExactly: admins, the professional, the customer of
 * an active booking with them).
 */
export async function profileFor(
  ctx: QueryCtx,
  viewer: Doc<"users"> | null,
  pro: Doc<"professionals">,
) {
  const privileged = viewer !== null && (viewer.role === "admin" || viewer._id === pro.userId);
  // the same professionals search lists: unverified ones too (their profile says why they cannot be booked)
  if (pro.verification.status === "rejected" && !privileged) return null;
  // a suspended professional's page is gone for everyone but admins (their own sessions are ended)
  if (viewer?.role !== "admin" && !inGoodStanding(await ctx.db.get("users", pro.userId)))
    return null;
  const exact = await seesExactly(ctx, viewer, pro._id);
  const user = exact ? await ctx.db.get("users", pro.userId) : null;
  return {
    ...(await card(ctx, pro)),
    state: pro.state,
    serviceArea: pro.locations.map((l) => ({
      city: l.city,
      cityName: cityName(l.city),
      state: l.state,
    })),
    contact: exact ? { phone: user?.phone ?? null, locations: pro.locations } : null,
  };
}

export async function documentUrls(ctx: QueryCtx, pro: Doc<"professionals">) {
  return {
    citizenshipFront: await urlOf(ctx, pro.documents.citizenshipFront),
    citizenshipBack: await urlOf(ctx, pro.documents.citizenshipBack),
    trainingCertificate: await urlOf(ctx, pro.documents.trainingCertificate),
  };
}

function verificationView(pro: Doc<"professionals">) {
  const { status, by, note, at, resubmittedAt } = pro.verification;
  return {
    status,
    // a note without a deciding admin was written by GharSewa itself (an unusable document, the demo seed)
    ...(note !== undefined ? { note, noteFrom: by === undefined ? "GharSewa" : "the admin" } : {}),
    ...(at !== undefined ? { at } : {}),
    ...(resubmittedAt !== undefined ? { resubmittedAt } : {}),
  };
}

/** The profile fields the dashboard and the admin grid both show. */
async function profileFields(ctx: QueryCtx, user: Doc<"users"> | null, pro: Doc<"professionals">) {
  return {
    _id: pro._id,
    name: user?.name ?? "",
    photoUrl: await photoUrlOf(ctx, user),
    specialty: pro.specialty,
    specialtyName: specialtyName(pro.specialty),
    city: pro.city,
    cityName: cityName(pro.city),
    state: pro.state,
    locations: pro.locations,
    verification: verificationView(pro),
    rating: ratingOf(pro),
    available: pro.available,
    onHold: pro.noShowHold !== undefined,
    workingHours: pro.workingHours ?? null,
  };
}

/** The signed-in professional's own dashboard profile, documents included. */
export async function dashboard(ctx: QueryCtx, user: Doc<"users">, pro: Doc<"professionals">) {
  return { ...(await profileFields(ctx, user, pro)), documents: await documentUrls(ctx, pro) };
}

/** A row of the admin technicians grid (contact details included, documents not). */
export async function adminRow(ctx: QueryCtx, pro: Doc<"professionals">) {
  const user = await ctx.db.get("users", pro.userId);
  return {
    ...(await profileFields(ctx, user, pro)),
    userId: pro.userId,
    email: user?.email ?? "",
    phone: user?.phone ?? "",
    phoneVerified: user !== null && isVerified(user, "phone"),
    online: await isOnline(ctx, pro.userId),
  };
}

export async function requireProfessional(ctx: QueryCtx, professionalId: Id<"professionals">) {
  const pro = await ctx.db.get("professionals", professionalId);
  if (pro === null) fail("NOT_FOUND", "This professional was not found.");
  return pro;
}

/**
 * An admin's verification decision; the professional is notified. Only a professional whose phone
 * number is verified (by an SMS code, model/contactVerification.ts) may be verified: customers call
 * that number, so it must be theirs.
 */
export async function verify(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: { professionalId: Id<"professionals">; decision: "verified" | "rejected"; note?: string },
): Promise<void> {
  const pro = await requireProfessional(ctx, args.professionalId);
  if (args.decision === "verified") {
    const user = await ctx.db.get("users", pro.userId);
    if (user === null || !isVerified(user, "phone"))
      fail(
        "PHONE_NOT_VERIFIED",
        "The professional has not verified their phone number yet: they verify it by an SMS code in their account, then you can verify them.",
      );
  }
  const note = args.note?.trim() || undefined;
  if (note !== undefined && note.length > 500) {
    fail("INVALID_INPUT", "The note may be at most 500 characters.");
  }
  if (args.decision === "rejected" && note === undefined) {
    fail("INVALID_INPUT", "Say why the documents were rejected.");
  }
  await updateProfessional(ctx, pro, {
    verification: {
      status: args.decision,
      by: admin._id,
      at: Date.now(),
      ...(note !== undefined ? { note } : {}),
    },
  });
  await refreshMarker(ctx, pro._id);
  await notify(ctx, {
    userId: pro.userId,
    kind: `verification.${args.decision}`,
    title:
      args.decision === "verified" ? "Your account is verified" : "Your verification was rejected",
    body:
      args.decision === "verified"
        ? "An administrator checked your documents. Customers can now book you."
        : `An administrator could not verify your documents: ${note}`,
    ...(note !== undefined ? { params: { note } } : {}),
  });
}

/** Finished jobs counted on the profile, and the accept times the median is taken over. */
const STATS_SCAN = 1000;
const ACCEPT_SAMPLE = 50;

/**
 * What the public profile shows beyond the card: completed jobs, member since, the median time from
 * request to acceptance (newest ACCEPT_SAMPLE acceptances), the services with their prices in the
 * professional's city.
 */
export async function publicStats(ctx: QueryCtx, pro: Doc<"professionals">) {
  const [completed, reviewed, accepts, user, services] = await Promise.all([
    ctx.db
      .query("bookings")
      .withIndex("by_professionalId_and_status", (q) =>
        q.eq("professionalId", pro._id).eq("status", "completed"),
      )
      .take(STATS_SCAN),
    ctx.db
      .query("bookings")
      .withIndex("by_professionalId_and_status", (q) =>
        q.eq("professionalId", pro._id).eq("status", "reviewed"),
      )
      .take(STATS_SCAN),
    ctx.db
      .query("bookingEvents")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
      .order("desc")
      .take(STATS_SCAN),
    ctx.db.get("users", pro.userId),
    servicesOf(ctx, specialtyCategory(pro.specialty)),
  ]);
  const acceptEvents = accepts.filter((e) => e.to === "accepted").slice(0, ACCEPT_SAMPLE);
  const waits = (
    await Promise.all(
      acceptEvents.map(async (e) => {
        const booking = await ctx.db.get("bookings", e.bookingId);
        return booking === null ? null : e._creationTime - booking._creationTime;
      }),
    )
  )
    .filter((w): w is number => w !== null)
    .sort((a, b) => a - b);
  const median =
    waits.length === 0
      ? null
      : waits.length % 2 === 1
        ? waits[(waits.length - 1) / 2]
        : Math.round((waits[waits.length / 2 - 1] + waits[waits.length / 2]) / 2);
  return {
    completedJobs: completed.length + reviewed.length,
    memberSince: user?._creationTime ?? pro._creationTime,
    medianAcceptMs: median,
    verifiedAt: pro.verification.status === "verified" ? (pro.verification.at ?? null) : null,
    services: services
      .map((svc) => ({ name: svc.name, price: priceIn(svc, pro.city) }))
      .filter((svc): svc is { name: string; price: number } => svc.price !== null),
  };
}
