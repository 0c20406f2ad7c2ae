/**
 * "Nearest available now": a customer's request (dispatchRequests) is offered (dispatchOffers) to
 * the nearest dispatchable professionals of its service, DISPATCH.batch at a time. A decline or an
 * offer's timeout offers it to the next nearest; nobody is offered it twice. The first professional
 * to accept gets a booking, made in the same transaction (Convex mutations are serializable, so two
 * accepting at once yield one booking: the second sees the offer taken). Until then no booking
 * exists, so `bookings.professionalId` stays required.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { SPECIALTIES } from "../constants";
import type { CitySlug } from "../validators";
import { otherCityIn } from "../rules/address";
import { BOOKING_LIMITS } from "../rules/limits";
import { DISPATCH, progressOf, type OfferStatus } from "../rules/dispatch";
import type { Pin } from "../rules/pin";
import { bookability } from "../rules/bookability";
import { openBill } from "./bill";
import { checkedPin } from "./bookings";
import { cityName, priceIn, specialtyName } from "./catalog";
import { nearestAvailable } from "./dispatchSpots";
import { jobMinutesFor, takenTimes } from "./slots";
import { clashWith } from "../rules/schedule";
import { fail } from "./errors";
import { checkedJobText } from "./jobText";
import { notify } from "./notifications";
import { rateLimited } from "./rateLimit";
import { getSettings } from "./settings";

const MAX_SERVICES = 10;

export async function request(
  ctx: MutationCtx,
  customer: Doc<"users">,
  args: {
    serviceIds: Id<"services">[];
    city: CitySlug;
    address: string;
    pin: Pin;
    note?: string;
    /** A professional not to offer it to: the one who did not come (redispatch). */
    skip?: Id<"professionals">;
  },
): Promise<Id<"dispatchRequests">> {
  const now = Date.now();
  const { address, note } = checkedJobText(args);
  const pin = checkedPin(args.pin);
  const otherCity = otherCityIn(address, args.city);
  if (otherCity !== undefined) {
    fail(
      "OUT_OF_AREA",
      `The address names ${cityName(otherCity)}, but this request is in ${cityName(args.city)}.`,
    );
  }
  const serviceIds = [...new Set(args.serviceIds)];
  if (serviceIds.length === 0) fail("NO_SERVICES", "Please choose at least one service.");
  if (serviceIds.length > MAX_SERVICES)
    fail("TOO_MANY_SERVICES", `A booking may hold at most ${MAX_SERVICES} services.`);
  const services: Doc<"dispatchRequests">["services"] = [];
  for (const id of serviceIds) {
    const service = await ctx.db.get("services", id);
    if (service === null) fail("NOT_FOUND", "One of the chosen services was not found.");
    const price = priceIn(service, args.city);
    if (price === null)
      fail("SERVICE_UNAVAILABLE", `${service.name} is not available in ${cityName(args.city)}.`);
    services.push({ id: service._id, name: service.name, category: service.category, price });
  }
  const specialty = SPECIALTIES.find((s) => s.category === services[0].category)?.slug;
  if (specialty === undefined || services.some((s) => s.category !== services[0].category)) {
    fail("SERVICE_NOT_OFFERED", "Choose services of one kind of professional.");
  }

  const searching = await ctx.db
    .query("dispatchRequests")
    .withIndex("by_customerId_and_status", (q) =>
      q.eq("customerId", customer._id).eq("status", "searching"),
    )
    .first();
  if (searching !== null) {
    fail(
      "TOO_MANY_OPEN_REQUESTS",
      "You are already looking for a professional. Wait for it, or cancel it first.",
    );
  }
  const { perHour, hourMs } = BOOKING_LIMITS;
  const lastHour = await ctx.db
    .query("dispatchRequests")
    .withIndex("by_customerId", (q) =>
      q.eq("customerId", customer._id).gt("_creationTime", now - hourMs),
    )
    .take(perHour);
  if (lastHour.length >= perHour) {
    throw rateLimited(
      lastHour[0]._creationTime + hourMs - now,
      `You have asked for ${perHour} professionals in the last hour`,
    );
  }

  const settings = await getSettings(ctx);
  const deadline = now + settings.dispatchLimitMinutes * 60_000;
  const requestId = await ctx.db.insert("dispatchRequests", {
    customerId: customer._id,
    specialty,
    city: args.city,
    services,
    // priced as bookings:create prices a booking, visit charge included
    price: services.reduce((sum, s) => sum + s.price, 0) + settings.visitChargeNrs,
    visitChargeNrs: settings.visitChargeNrs,
    address,
    pin,
    note,
    ...(args.skip !== undefined ? { skip: args.skip } : {}),
    status: "searching",
    deadline,
    updatedAt: now,
  });
  await ctx.scheduler.runAt(deadline, internal.dispatch.giveUp, { requestId });
  await offerMore(ctx, requestId);
  return requestId;
}

/**
 * One tap after a no-show: the booking's job sent out as a "nearest now" request from its pin,
 * offered to anyone but the professional who did not come.
 */
export async function redispatch(
  ctx: MutationCtx,
  customer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<Id<"dispatchRequests">> {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || booking.customerId !== customer._id)
    fail("NOT_FOUND", "This booking was not found.");
  if (booking.status !== "no_show") {
    fail("ILLEGAL_TRANSITION", "Only a booking closed as a no-show is sent to others this way.");
  }
  if (booking.pin === undefined) {
    fail("INVALID_INPUT", "This booking has no map pin: choose a professional and a time instead.");
  }
  return await request(ctx, customer, {
    serviceIds: booking.services.map((s) => s.id),
    city: booking.city,
    address: booking.address,
    pin: booking.pin,
    note: booking.note,
    skip: booking.professionalId,
  });
}

async function offersOf(ctx: QueryCtx, requestId: Id<"dispatchRequests">) {
  return await ctx.db
    .query("dispatchOffers")
    .withIndex("by_requestId", (q) => q.eq("requestId", requestId))
    .take(DISPATCH.maxOffers);
}

/** Whether the professional has an accepted or running job that a job from `now` would overlap. */
async function busyNow(
  ctx: QueryCtx,
  pro: Doc<"professionals">,
  req: Doc<"dispatchRequests">,
  now: number,
): Promise<boolean> {
  const jobMinutes = await jobMinutesFor(
    ctx,
    pro,
    req.services.map(({ id }) => id),
  );
  const job = { from: now, to: now + jobMinutes * 60_000 };
  const taken = await takenTimes(ctx, pro._id, job, { activeOnly: true });
  return clashWith(now, jobMinutes, taken) !== undefined;
}

/**
 * Keeps DISPATCH.batch offers open: offers the request to the next nearest professionals nobody
 * offered it to yet who are online and free now (no accepted job overlapping it). With none left and none deciding, the search ends unmatched.
 */
async function offerMore(ctx: MutationCtx, requestId: Id<"dispatchRequests">): Promise<void> {
  const req = await ctx.db.get("dispatchRequests", requestId);
  if (req === null || req.status !== "searching") return;
  const offers = await offersOf(ctx, requestId);
  const open = offers.filter((o) => o.status === "offered").length;
  const room = Math.min(DISPATCH.batch - open, DISPATCH.maxOffers - offers.length);
  const now = Date.now();
  const exclude = new Set(offers.map((o) => o.professionalId));
  if (req.skip !== undefined) exclude.add(req.skip);
  const found: { pro: Doc<"professionals">; distance: number }[] = [];
  // the nearest online professionals, passing over those with a job under way now
  for (let round = 0; found.length < room && round < DISPATCH.searchRounds; round++) {
    const { found: nearest } = await nearestAvailable(ctx, {
      specialty: req.specialty,
      city: req.city,
      pin: req.pin,
      limit: room - found.length,
      exclude,
    });
    if (nearest.length === 0) break;
    for (const { spot, distance } of nearest) {
      exclude.add(spot.professionalId);
      const pro = await ctx.db.get("professionals", spot.professionalId);
      if (pro !== null && !(await busyNow(ctx, pro, req, now))) found.push({ pro, distance });
    }
  }
  if (open === 0 && found.length === 0) {
    await finish(ctx, req, "unmatched");
    return;
  }
  const offerMs = (await getSettings(ctx)).dispatchOfferSeconds * 1000;
  const services = req.services.map((s) => s.name);
  for (const { pro, distance } of found) {
    const offerId = await ctx.db.insert("dispatchOffers", {
      requestId,
      professionalId: pro._id,
      professionalUserId: pro.userId,
      distanceMetres: Math.round(distance),
      status: "offered",
      expiresAt: now + offerMs,
    });
    await ctx.scheduler.runAfter(offerMs, internal.dispatch.timeOut, { offerId });
    await notify(ctx, {
      userId: pro.userId,
      kind: "dispatch.offered",
      title: "Job nearby now",
      body: `${services.join(", ")} in ${cityName(req.city)}, ${(distance / 1000).toFixed(1)} km away. Answer within ${offerMs / 1000} seconds.`,
      params: {
        services: services.join("\n"),
        city: req.city,
        km: (distance / 1000).toFixed(1),
        seconds: String(offerMs / 1000),
      },
    });
  }
}

/** Ends a search: its open offers are withdrawn; when nobody accepted, the customer is told. */
async function finish(
  ctx: MutationCtx,
  req: Doc<"dispatchRequests">,
  status: "cancelled" | "unmatched",
): Promise<void> {
  const now = Date.now();
  await ctx.db.patch("dispatchRequests", req._id, { status, updatedAt: now });
  for (const offer of await offersOf(ctx, req._id)) {
    if (offer.status === "offered")
      await ctx.db.patch("dispatchOffers", offer._id, { status: "withdrawn", answeredAt: now });
  }
  if (status === "unmatched") {
    await notify(ctx, {
      userId: req.customerId,
      kind: "dispatch.unmatched",
      title: "No professional free right now",
      body: `Nobody could take ${req.services.map((s) => s.name).join(", ")} now. Choose a professional and a time instead.`,
      params: { services: req.services.map((s) => s.name).join("\n") },
    });
  }
}

const CLOSED: Record<Exclude<OfferStatus, "offered">, string> = {
  accepted: "You accepted this job.",
  taken: "Another professional took this job first.",
  withdrawn: "The customer no longer needs this job.",
  declined: "You declined this job.",
  timed_out: "The time to answer this offer has run out.",
  left: "You went offline or unavailable before answering this offer.",
};

async function ownOffer(ctx: QueryCtx, viewer: Doc<"users">, offerId: Id<"dispatchOffers">) {
  const offer = await ctx.db.get("dispatchOffers", offerId);
  // someone else's offer answers as a missing one: its id tells them nothing
  if (offer === null || offer.professionalUserId !== viewer._id)
    fail("NOT_FOUND", "This offer was not found.");
  const req = await ctx.db.get("dispatchRequests", offer.requestId);
  if (req === null) fail("NOT_FOUND", "This offer was not found.");
  return { offer, req };
}

/**
 * The professional takes the job: a booking like any other (job length, bill, event log), made
 * accepted and theirs, unless someone was first or they may no longer take jobs.
 */
export async function accept(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  offerId: Id<"dispatchOffers">,
): Promise<Id<"bookings">> {
  const { offer, req } = await ownOffer(ctx, viewer, offerId);
  if (offer.status === "accepted" && req.bookingId !== undefined) return req.bookingId;
  if (offer.status !== "offered") {
    fail(offer.status === "taken" ? "OFFER_TAKEN" : "OFFER_CLOSED", CLOSED[offer.status]);
  }
  const pro = await ctx.db.get("professionals", offer.professionalId);
  if (pro === null) fail("NOT_FOUND", "Your professional profile was not found.");
  const canTake = bookability({
    verified: pro.verification.status === "verified",
    available: pro.available,
  });
  if (!canTake.bookable) fail(canTake.code, canTake.ownReason);
  const jobMinutes = await jobMinutesFor(
    ctx,
    pro,
    req.services.map(({ id }) => id),
  );
  const now = Date.now();
  const bookingId = await ctx.db.insert("bookings", {
    customerId: req.customerId,
    professionalId: offer.professionalId,
    professionalUserId: offer.professionalUserId,
    services: req.services,
    address: req.address,
    pin: req.pin,
    city: req.city,
    scheduledFor: now,
    jobMinutes,
    note: req.note,
    price: req.price,
    status: "accepted",
    acceptedAt: now,
    updatedAt: now,
  });
  await openBill(ctx, bookingId, req.services, req.visitChargeNrs);
  for (const [actorId, from, to] of [
    [req.customerId, undefined, "requested"],
    [viewer._id, "requested", "accepted"],
  ] as const) {
    await ctx.db.insert("bookingEvents", {
      bookingId,
      professionalId: offer.professionalId,
      actorId,
      from,
      to,
    });
  }
  await ctx.db.patch("dispatchOffers", offer._id, { status: "accepted", answeredAt: now });
  for (const other of await offersOf(ctx, req._id)) {
    if (other._id !== offer._id && other.status === "offered")
      await ctx.db.patch("dispatchOffers", other._id, { status: "taken", answeredAt: now });
  }
  await ctx.db.patch("dispatchRequests", req._id, { status: "matched", bookingId, updatedAt: now });
  const services = req.services.map((s) => s.name);
  await notify(ctx, {
    userId: req.customerId,
    kind: "booking.accepted",
    title: "Booking accepted",
    body: `${viewer.name ?? "The professional"} accepted your booking for ${services.join(", ")}.`,
    params: { actor: viewer.name ?? "", actorRole: "professional", services: services.join("\n") },
    bookingId,
  });
  return bookingId;
}

export async function decline(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  offerId: Id<"dispatchOffers">,
): Promise<void> {
  const { offer } = await ownOffer(ctx, viewer, offerId);
  if (offer.status === "declined") return;
  if (offer.status !== "offered") {
    fail(offer.status === "taken" ? "OFFER_TAKEN" : "OFFER_CLOSED", CLOSED[offer.status]);
  }
  await ctx.db.patch("dispatchOffers", offer._id, { status: "declined", answeredAt: Date.now() });
  await offerMore(ctx, offer.requestId);
}

/** Scheduled with each offer: still unanswered, it lapses and the next nearest is offered. */
export async function timeOut(ctx: MutationCtx, offerId: Id<"dispatchOffers">): Promise<void> {
  const offer = await ctx.db.get("dispatchOffers", offerId);
  if (offer === null || offer.status !== "offered") return;
  await ctx.db.patch("dispatchOffers", offer._id, { status: "timed_out", answeredAt: Date.now() });
  await offerMore(ctx, offer.requestId);
}

/** Scheduled at the request's deadline: a search still running ends unmatched. */
export async function giveUp(ctx: MutationCtx, requestId: Id<"dispatchRequests">): Promise<void> {
  const req = await ctx.db.get("dispatchRequests", requestId);
  if (req?.status === "searching") await finish(ctx, req, "unmatched");
}

/**
 * A professional who can no longer answer (offline, unavailable, suspended, unverified) loses their
 * open offers at once, and each request goes on to the next nearest without waiting for the offer's
 * time to run out. Called wherever their dispatch spot may have turned ineligible; cheap when they
 * have no open offer (one index range).
 */
export async function leaveOffers(
  ctx: MutationCtx,
  professionalUserId: Id<"users">,
): Promise<void> {
  const open = await ctx.db
    .query("dispatchOffers")
    .withIndex("by_professionalUserId_and_status", (q) =>
      q.eq("professionalUserId", professionalUserId).eq("status", "offered"),
    )
    .take(DISPATCH.maxOffers);
  const now = Date.now();
  for (const offer of open) {
    await ctx.db.patch("dispatchOffers", offer._id, { status: "left", answeredAt: now });
    await offerMore(ctx, offer.requestId);
  }
}

/**
 * A suspended account leaves dispatch at once: a professional's open offers go to the next nearest
 * (their spot is already ineligible), a customer's running search is cancelled.
 */
export async function leaveDispatch(ctx: MutationCtx, user: Doc<"users">): Promise<void> {
  await leaveOffers(ctx, user._id);
  const searching = await ctx.db
    .query("dispatchRequests")
    .withIndex("by_customerId_and_status", (q) =>
      q.eq("customerId", user._id).eq("status", "searching"),
    )
    .take(DISPATCH.maxOffers);
  for (const req of searching) await finish(ctx, req, "cancelled");
}

export async function cancel(
  ctx: MutationCtx,
  customer: Doc<"users">,
  requestId: Id<"dispatchRequests">,
): Promise<void> {
  const req = await ctx.db.get("dispatchRequests", requestId);
  if (req === null || req.customerId !== customer._id)
    fail("NOT_FOUND", "This request was not found.");
  if (req.status === "cancelled" || req.status === "unmatched") return;
  if (req.status === "matched") {
    fail(
      "ILLEGAL_TRANSITION",
      "A professional already accepted: cancel the booking in My Bookings instead.",
    );
  }
  await finish(ctx, req, "cancelled");
}

/** The customer's live view of their request: what was asked, how far the search got. */
export async function view(
  ctx: QueryCtx,
  customer: Doc<"users">,
  requestId: Id<"dispatchRequests">,
) {
  const req = await ctx.db.get("dispatchRequests", requestId);
  if (req === null || req.customerId !== customer._id) return null;
  const offers = await offersOf(ctx, requestId);
  return {
    _id: req._id,
    status: req.status,
    specialty: req.specialty,
    specialtyName: specialtyName(req.specialty),
    city: req.city,
    services: req.services.map((s) => ({ name: s.name, category: s.category, price: s.price })),
    price: req.price,
    address: req.address,
    pin: req.pin,
    deadline: req.deadline,
    bookingId: req.bookingId ?? null,
    progress: progressOf(offers.map((o) => o.status)),
  };
}

/**
 * The professional's newest offers, each with what the job is and how far: the area, not the
 * address, which they see once the booking is theirs. A taken or withdrawn offer stays listed as
 * such, so the professional sees it close live; one they left by going offline or unavailable is
 * gone from their screen.
 */
export async function offersFor(ctx: QueryCtx, viewer: Doc<"users">) {
  const offers = await ctx.db
    .query("dispatchOffers")
    .withIndex("by_professionalUserId", (q) => q.eq("professionalUserId", viewer._id))
    .order("desc")
    .take(5);
  const rows = [];
  for (const offer of offers) {
    if (offer.status === "left") continue;
    const req = await ctx.db.get("dispatchRequests", offer.requestId);
    if (req === null) continue;
    rows.push({
      _id: offer._id,
      status: offer.status,
      offeredAt: offer._creationTime,
      expiresAt: offer.expiresAt,
      distanceMetres: offer.distanceMetres,
      city: req.city,
      services: req.services.map((s) => ({ name: s.name, price: s.price })),
      price: req.price,
      bookingId: offer.status === "accepted" ? (req.bookingId ?? null) : null,
    });
  }
  return rows;
}
