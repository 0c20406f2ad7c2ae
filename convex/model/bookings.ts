import type { PaginationOptions } from "convex/server";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { BookingStatus, CitySlug } from "../validators";
import {
  ACTIVE_STATUSES,
  checkTransition,
  OPEN_STATUSES,
  type Actor,
} from "../rules/bookingLifecycle";
import { BOOKING_FIELDS } from "../rules/bookingFields";
import { BOOKING_LIMITS } from "../rules/limits";
import { bookability } from "../rules/bookability";
import { otherCityIn } from "../rules/address";
import { insideNepal, roundPin, type Pin } from "../rules/pin";
import { formatNrs, formatPaisa } from "../rules/money";
import {
  clashWith,
  clock,
  stepsOpenAt,
  tooEarlyForSteps,
  withinWorkingHours,
  dayList,
  DEFAULT_JOB_MINUTES,
  busyOf,
} from "../rules/schedule";
import { jobMinutesFor, MAX_SERVICES_PER_BOOKING, nextFreeSlots, takenTimes } from "./slots";
import { categoryName, cityName, priceIn, specialtyCategory, specialtyName } from "./catalog";
import { notify } from "./notifications";
import { rateLimited } from "./rateLimit";
import { getSettings } from "./settings";
import { fail } from "./errors";
import { checkedJobText } from "./jobText";
import { photoUrlOf } from "./files";
import { scheduleAutoConfirm } from "./jobConfirmation";
import { professionalOfUser } from "./professionalOfUser";
import { billLateCancelFee, billOf, openBill } from "./bill";
import { endStartCode, issueStartCode, startCodeView } from "./startCodes";
import { rescheduleView } from "./reschedules";
import { settleJob } from "./ledger";
import { refundOnCancel } from "./refunds";
import { pendingLines } from "../rules/bill";
import { isLateCancel, lateCancelFee } from "../rules/cancellation";
import { addStrike } from "./strikes";

const { reason: REASON } = BOOKING_FIELDS;
/** A slot may be booked up to this far ahead. */
const MAX_AHEAD_MS = 180 * 24 * 60 * 60 * 1000;
/** Clock skew allowance for "now" slots picked on a phone. */
const PAST_GRACE_MS = 60 * 1000;

/** The pin as stored: refused outside Nepal (rules/pin.ts), rounded to about a metre. */
export function checkedPin(pin: Pin): Pin {
  if (!insideNepal(pin)) {
    fail("PIN_OUTSIDE_NEPAL", "The map pin must be in Nepal. Move it to where the job is.");
  }
  return roundPin(pin);
}

export async function requireOwnProfessional(ctx: QueryCtx, viewer: Doc<"users">) {
  const pro = await professionalOfUser(ctx, viewer._id);
  if (pro === null) fail("NOT_FOUND", "Your professional profile was not found.");
  return pro;
}

/**
 * A customer may have a few open bookings with one professional and a bounded number overall, and
 * make a bounded number of requests an hour (BOOKING_LIMITS): each request notifies a professional
 * and schedules an expiry.
 */
async function checkRequestLimits(
  ctx: QueryCtx,
  customerId: Id<"users">,
  professionalId: Id<"professionals">,
  now: number,
): Promise<void> {
  const { openPerProfessional, openOverall, perHour, hourMs } = BOOKING_LIMITS;
  const open = (
    await Promise.all(
      OPEN_STATUSES.map((status) =>
        ctx.db
          .query("bookings")
          .withIndex("by_customerId_and_status", (q) =>
            q.eq("customerId", customerId).eq("status", status),
          )
          .take(openOverall),
      ),
    )
  ).flat();
  if (open.length >= openOverall) {
    fail(
      "TOO_MANY_OPEN_REQUESTS",
      `You have ${openOverall} open bookings. Wait for answers, or cancel one, before booking again.`,
    );
  }
  if (open.filter((b) => b.professionalId === professionalId).length >= openPerProfessional) {
    fail(
      "TOO_MANY_OPEN_REQUESTS",
      `You already have ${openPerProfessional} open bookings with this professional. Wait for an answer, or cancel one.`,
    );
  }
  const lastHour = await ctx.db
    .query("bookings")
    .withIndex("by_customerId", (q) =>
      q.eq("customerId", customerId).gt("_creationTime", now - hourMs),
    )
    .take(perHour);
  if (lastHour.length >= perHour) {
    throw rateLimited(
      lastHour[0]._creationTime + hourMs - now,
      `You have sent ${perHour} booking requests in the last hour`,
    );
  }
}

export async function create(
  ctx: MutationCtx,
  customer: Doc<"users">,
  args: {
    professionalId: Id<"professionals">;
    serviceIds: Id<"services">[];
    address: string;
    city: CitySlug;
    scheduledFor: number;
    note?: string;
    pin?: Pin;
  },
): Promise<Id<"bookings">> {
  const now = Date.now();
  const { address, note } = checkedJobText(args);
  const pin = args.pin === undefined ? undefined : checkedPin(args.pin);
  if (!Number.isFinite(args.scheduledFor) || args.scheduledFor < now - PAST_GRACE_MS) {
    fail("SLOT_IN_PAST", "Please choose a time in the future.");
  }
  if (args.scheduledFor > now + MAX_AHEAD_MS)
    fail("SLOT_TOO_FAR", "Bookings can be made up to six months ahead.");
  const serviceIds = [...new Set(args.serviceIds)];
  if (serviceIds.length === 0) fail("NO_SERVICES", "Please choose at least one service.");
  if (serviceIds.length > MAX_SERVICES_PER_BOOKING) {
    fail("TOO_MANY_SERVICES", `A booking may hold at most ${MAX_SERVICES_PER_BOOKING} services.`);
  }

  const pro = await ctx.db.get("professionals", args.professionalId);
  if (pro === null) fail("NOT_FOUND", "This professional was not found.");
  const proUser = await ctx.db.get("users", pro.userId);
  // suspended or not yet verified, a professional is hidden from customers: as if missing
  if (proUser === null || proUser.suspended !== undefined || pro.verification.status !== "verified")
    fail("NOT_FOUND", "This professional was not found.");
  const canBook = bookability({
    verified: pro.verification.status === "verified",
    available: pro.available,
    onHold: pro.noShowHold !== undefined,
  });
  if (!canBook.bookable)
    fail(canBook.code, `This professional cannot be booked: ${canBook.reason}`);
  const serves = pro.city === args.city || pro.locations.some((l) => l.city === args.city);
  if (!serves) fail("OUT_OF_AREA", `This professional does not work in ${cityName(args.city)}.`);
  const otherCity = otherCityIn(address, args.city);
  if (otherCity !== undefined) {
    fail(
      "OUT_OF_AREA",
      `The address names ${cityName(otherCity)}, but this booking is in ${cityName(args.city)}. Give the street and ward in ${cityName(args.city)}.`,
    );
  }
  const jobMinutes = await jobMinutesFor(ctx, pro, serviceIds);
  const hours = pro.workingHours;
  if (hours !== undefined && !withinWorkingHours(args.scheduledFor, hours, jobMinutes)) {
    const name = proUser.name ?? "This professional";
    fail(
      "OUTSIDE_WORKING_HOURS",
      withinWorkingHours(args.scheduledFor, hours)
        ? `This job takes ${jobMinutes / 60} h and would end after ${clock(hours.end)}, when ${name} stops work. Please choose an earlier time.`
        : `${name} works ${dayList(hours.days)} from ${clock(hours.start)} to ${clock(hours.end)} (Nepal time). Please choose a time in those hours.`,
      { days: hours.days, start: hours.start, end: hours.end, jobMinutes },
    );
  }
  const taken = clashWith(
    args.scheduledFor,
    jobMinutes,
    await takenTimes(
      ctx,
      pro._id,
      { from: args.scheduledFor, to: args.scheduledFor + jobMinutes * 60_000 },
      { customerId: customer._id },
    ),
  );
  if (taken !== undefined) {
    const next = await nextFreeSlots(ctx, pro, { now, jobMinutes, customerId: customer._id });
    fail(
      "SLOT_TAKEN",
      "This time was just taken: the professional has another job then. Please choose another time.",
      { at: taken.start, next },
    );
  }

  const category = specialtyCategory(pro.specialty);
  const services = [];
  for (const id of serviceIds) {
    const service = await ctx.db.get("services", id);
    if (service === null) fail("NOT_FOUND", "One of the chosen services was not found.");
    if (service.category !== category) {
      fail(
        "SERVICE_NOT_OFFERED",
        `${service.name} is not a ${specialtyName(pro.specialty)} service.`,
      );
    }
    const price = priceIn(service, args.city);
    if (price === null)
      fail("SERVICE_UNAVAILABLE", `${service.name} is not available in ${cityName(args.city)}.`);
    services.push({ id: service._id, name: service.name, category: service.category, price });
  }
  const settings = await getSettings(ctx);
  const price = services.reduce((sum, s) => sum + s.price, 0) + settings.visitChargeNrs;
  await checkRequestLimits(ctx, customer._id, pro._id, now);

  const bookingId = await ctx.db.insert("bookings", {
    customerId: customer._id,
    professionalId: pro._id,
    professionalUserId: pro.userId,
    services,
    address,
    pin,
    city: args.city,
    scheduledFor: args.scheduledFor,
    jobMinutes,
    note,
    price,
    status: "requested",
    updatedAt: now,
  });
  await ctx.db.insert("bookingEvents", {
    bookingId,
    professionalId: pro._id,
    actorId: customer._id,
    to: "requested",
  });
  await openBill(ctx, bookingId, services, settings.visitChargeNrs);
  await notify(ctx, {
    userId: pro.userId,
    kind: "booking.requested",
    title: "New booking request",
    body: `${customer.name ?? "A customer"} requested ${services.map((s) => s.name).join(", ")} in ${cityName(args.city)}.`,
    params: {
      actor: customer.name ?? "",
      actorRole: "customer",
      services: services.map((s) => s.name).join("\n"),
      city: args.city,
    },
    bookingId,
  });
  await ctx.scheduler.runAfter(
    settings.bookingExpiryMinutes * 60 * 1000,
    internal.bookings.expire,
    {
      bookingId,
    },
  );
  return bookingId;
}

/** Steps of the job itself, refused until an hour before the booked time (rules/schedule.ts). */
const LEAD_STEPS: readonly BookingStatus[] = ["en_route", "arrived", "in_progress", "completed"];

type NoticeInput = { actor: string; services: string; booking: Doc<"bookings">; reason?: string };

const NOTICE: Partial<Record<BookingStatus, { title: string; body: (n: NoticeInput) => string }>> =
  {
    accepted: {
      title: "Booking accepted",
      body: (n) => `${n.actor} accepted your booking for ${n.services}.`,
    },
    rejected: {
      title: "Booking declined",
      body: (n) =>
        `${n.actor} could not take your booking for ${n.services}${n.reason ? ` (${n.reason})` : ""}. ` +
        "Try another professional.",
    },
    en_route: {
      title: "Professional on the way",
      body: (n) => `${n.actor} is on the way for ${n.services}. Track them live from My Bookings.`,
    },
    arrived: {
      title: "Professional arrived",
      body: (n) =>
        `${n.actor} has arrived for ${n.services}. Give them the start code shown on your booking in My Bookings.`,
    },
    in_progress: {
      title: "Job started",
      body: (n) => `The job has started: ${n.services}.`,
    },
    completed: {
      title: "Job completed",
      body: (n) =>
        `${n.actor} completed ${n.services}. Total ${formatNrs(n.booking.price)}. Please rate the job.`,
    },
    reviewed: {
      title: "New review",
      body: (n) => `${n.actor} rated your work on ${n.services}.`,
    },
    cancelled: {
      title: "Booking cancelled",
      body: (n) => `${n.actor} cancelled the booking for ${n.services}: ${n.reason}`,
    },
    no_show: {
      title: "Marked as a no-show",
      body: (n) => `${n.actor} marked the booking for ${n.services} as a no-show: ${n.reason}`,
    },
    expired: {
      title: "Booking expired",
      body: (n) => `The request for ${n.services} was not answered in time and has expired.`,
    },
  };

/**
 * Applies one lifecycle step after checking the actor owns the booking and the edge is allowed.
 * A retried step to the current state is a no-op. Writes the event and notifies the other party.
 */
export async function transition(
  ctx: MutationCtx,
  args: {
    bookingId: Id<"bookings">;
    to: BookingStatus;
    actor: Actor;
    actorUser?: Doc<"users">;
    reason?: string;
    /** The professional saw the clash warning and accepts anyway. */
    confirmClash?: boolean;
    /** The start code was checked, or the customer confirmed the start (model/jobStart.ts). */
    startChecked?: boolean;
    /** The late-cancellation fee the customer saw and accepts (rules/cancellation.ts). */
    seenFeePaisa?: number;
  },
): Promise<void> {
  const booking = await ctx.db.get("bookings", args.bookingId);
  const user = args.actorUser;
  const owner = args.actor === "customer" ? booking?.customerId : booking?.professionalUserId;
  const entitled =
    args.actor === "system" ||
    (args.actor === "admin" ? user?.role === "admin" : user !== undefined && user._id === owner);
  // someone else's booking answers as a missing one: its id tells them nothing
  if (booking === null || !entitled) {
    fail("NOT_FOUND", "This booking was not found.");
  }
  const check = checkTransition(booking.status, args.to, args.actor);
  if (check.kind === "noop") return;
  if (check.kind === "illegal") fail("ILLEGAL_TRANSITION", check.message);
  const now = Date.now();
  if (LEAD_STEPS.includes(args.to) && tooEarlyForSteps(booking.scheduledFor, now)) {
    fail(
      "TOO_EARLY",
      "This job is booked for later: you can start it from one hour before the booked time.",
      { from: stepsOpenAt(booking.scheduledFor) },
    );
  }
  if (args.to === "in_progress" && !args.startChecked) {
    fail("ILLEGAL_TRANSITION", "The job starts with the start code shown to the customer.");
  }
  if (args.to === "accepted" && !args.confirmClash) {
    const job = busyOf(booking.scheduledFor, booking.jobMinutes);
    const taken = clashWith(
      booking.scheduledFor,
      booking.jobMinutes,
      await takenTimes(
        ctx,
        booking.professionalId,
        { from: job.start, to: job.end },
        {
          except: booking._id,
          activeOnly: true,
        },
      ),
    );
    if (taken !== undefined) {
      fail(
        "BOOKING_CLASH",
        "You already accepted a job around this time. Accept this one too only if you can do both.",
        { at: taken.start },
      );
    }
  }

  if (args.to === "completed" && pendingLines((await billOf(ctx, booking)).lines).length > 0) {
    fail(
      "BILL_PENDING",
      "The customer has not yet answered every item on the bill: the job can be completed once they have.",
    );
  }

  const reason = args.reason?.trim() || undefined;
  if (reason !== undefined && reason.length > REASON.max)
    fail("REASON_TOO_LONG", `The reason may be at most ${REASON.max} characters.`);
  if (args.to === "cancelled" && (reason === undefined || reason.length < REASON.min))
    fail(
      "REASON_REQUIRED",
      `Please say why you are cancelling (at least ${REASON.min} characters).`,
    );

  const feePaisa =
    args.to === "cancelled" && args.actor === "customer"
      ? lateCancelFee(
          booking.status,
          (await billOf(ctx, booking)).totalPaisa,
          (await getSettings(ctx)).lateCancelFeeNrs,
        )
      : 0;
  if (feePaisa > 0 && args.seenFeePaisa !== feePaisa) {
    fail(
      "CANCEL_FEE",
      `The professional is on the way: cancelling now costs a late-cancellation fee of ${formatPaisa(feePaisa)}.`,
      { feePaisa },
    );
  }

  await ctx.db.patch("bookings", booking._id, {
    status: args.to,
    updatedAt: now,
    ...(args.to === "accepted" ? { acceptedAt: now } : {}),
    ...(args.to === "completed" ? { workDoneAt: now } : {}),
    ...(args.to === "cancelled" && (args.actor === "customer" || args.actor === "professional")
      ? { cancelReason: reason, cancelledBy: args.actor }
      : args.to === "cancelled" || (args.to === "rejected" && reason !== undefined)
        ? { cancelReason: reason }
        : {}),
  });
  await ctx.db.insert("bookingEvents", {
    bookingId: booking._id,
    professionalId: booking.professionalId,
    actorId: user?._id,
    from: booking.status,
    to: args.to,
    reason,
  });
  if (args.to === "arrived") await issueStartCode(ctx, booking._id);
  if (booking.status === "arrived") await endStartCode(ctx, booking._id);
  if (feePaisa > 0) await billLateCancelFee(ctx, booking._id, feePaisa);
  if (args.to === "cancelled") await refundOnCancel(ctx, booking);
  if (args.to === "cancelled" && args.actor === "professional" && isLateCancel(booking.status))
    await addStrike(ctx, booking, "late_cancel");
  if (args.to === "completed") {
    await scheduleAutoConfirm(ctx, booking._id);
    await settleJob(ctx, booking);
    for (const s of booking.services) {
      const service = await ctx.db.get("services", s.id);
      if (service !== null)
        await ctx.db.patch("services", service._id, { totalBookings: service.totalBookings + 1 });
    }
  }

  const notice = NOTICE[args.to]!;
  // an admin acts for GharSewa: the parties are told the service did it, not which admin
  const actorName = args.actor === "admin" ? "GharSewa" : user?.name;
  const body = notice.body({
    actor: actorName ?? (args.actor === "customer" ? "The customer" : "The professional"),
    services: booking.services.map((s) => s.name).join(", "),
    booking,
    reason,
  });
  const recipients =
    args.actor === "system" || args.actor === "admin"
      ? [booking.customerId, booking.professionalUserId]
      : [args.actor === "customer" ? booking.professionalUserId : booking.customerId];
  for (const userId of recipients) {
    await notify(ctx, {
      userId,
      kind: `booking.${args.to}`,
      title: notice.title,
      body,
      params: {
        actor: actorName ?? "",
        actorRole: args.actor,
        services: booking.services.map((s) => s.name).join("\n"),
        price: String(booking.price),
        ...(reason !== undefined ? { reason } : {}),
      },
      bookingId: booking._id,
    });
  }
}

/** Caches the users and profiles a page of bookings shares. */
export function loader(ctx: QueryCtx) {
  const users = new Map<Id<"users">, Promise<Doc<"users"> | null>>();
  const pros = new Map<Id<"professionals">, Promise<Doc<"professionals"> | null>>();
  return {
    user: (id: Id<"users">) => {
      if (!users.has(id)) users.set(id, ctx.db.get("users", id));
      return users.get(id)!;
    },
    pro: (id: Id<"professionals">) => {
      if (!pros.has(id)) pros.set(id, ctx.db.get("professionals", id));
      return pros.get(id)!;
    },
  };
}

/**
 * The shape every booking list returns. Phone numbers, and to the professional the exact address and
 * map pin, are shared only while the job is active: before the professional accepts they see the
 * city, and after the job ends neither side sees the other's number or the customer's address.
 */
export async function view(
  ctx: QueryCtx,
  load: ReturnType<typeof loader>,
  b: Doc<"bookings">,
  viewer: Doc<"users">,
) {
  const [customer, pro, proUser] = await Promise.all([
    load.user(b.customerId),
    load.pro(b.professionalId),
    load.user(b.professionalUserId),
  ]);
  const active = ACTIVE_STATUSES.includes(b.status);
  const showPhone = active || viewer.role === "admin";
  const showPlace = showPhone || viewer._id === b.customerId;
  return {
    _id: b._id,
    _creationTime: b._creationTime,
    status: b.status,
    services: b.services.map((s) => ({ ...s, categoryName: categoryName(s.category) })),
    address: showPlace ? b.address : null,
    pin: showPlace ? (b.pin ?? null) : null,
    city: b.city,
    cityName: cityName(b.city),
    scheduledFor: b.scheduledFor,
    jobMinutes: b.jobMinutes ?? DEFAULT_JOB_MINUTES,
    note: b.note ?? null,
    price: b.price,
    cancelReason: b.cancelReason ?? null,
    cancelledBy: b.cancelledBy ?? null,
    updatedAt: b.updatedAt,
    customer: {
      _id: b.customerId,
      name: customer?.name ?? "Customer",
      phone: showPhone ? (customer?.phone ?? null) : null,
      photoUrl: await photoUrlOf(ctx, customer),
    },
    professional: {
      _id: b.professionalId,
      name: proUser?.name ?? "Professional",
      photoUrl: await photoUrlOf(ctx, proUser),
      specialty: pro?.specialty ?? null,
      specialtyName: pro ? specialtyName(pro.specialty) : null,
      phone: showPhone ? (proUser?.phone ?? null) : null,
    },
    confirmedBy: b.confirmedBy ?? null,
    start: await startCodeView(ctx, b, viewer),
    reschedule: await rescheduleView(ctx, b),
    canReview:
      b.status === "completed" && b.confirmedBy !== undefined && viewer._id === b.customerId,
  };
}

export type BookingView = Awaited<ReturnType<typeof view>>;

export async function pageForProfessional(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  paginationOpts: PaginationOptions,
) {
  const pro = await requireOwnProfessional(ctx, viewer);
  const page = await ctx.db
    .query("bookings")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
    .order("desc")
    .paginate(paginationOpts);
  const load = loader(ctx);
  return { ...page, page: await Promise.all(page.page.map((b) => view(ctx, load, b, viewer))) };
}

export async function pageForCustomer(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  paginationOpts: PaginationOptions,
) {
  const page = await ctx.db
    .query("bookings")
    .withIndex("by_customerId", (q) => q.eq("customerId", viewer._id))
    .order("desc")
    .paginate(paginationOpts);
  const load = loader(ctx);
  return { ...page, page: await Promise.all(page.page.map((b) => view(ctx, load, b, viewer))) };
}

/** Bookings of a user as the spec's GET /api/bookings/{userId} lists them: as professional or as customer. */
export async function recentForUser(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  user: Doc<"users">,
  limit: number,
) {
  const pro = user.role === "professional" ? await professionalOfUser(ctx, user._id) : null;
  const rows = pro
    ? await ctx.db
        .query("bookings")
        .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
        .order("desc")
        .take(limit)
    : await ctx.db
        .query("bookings")
        .withIndex("by_customerId", (q) => q.eq("customerId", user._id))
        .order("desc")
        .take(limit);
  const load = loader(ctx);
  return await Promise.all(rows.map((b) => view(ctx, load, b, viewer)));
}

export function canSee(viewer: Doc<"users">, booking: Doc<"bookings">): boolean {
  return (
    viewer.role === "admin" ||
    viewer._id === booking.customerId ||
    viewer._id === booking.professionalUserId
  );
}

export async function getWithEvents(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
) {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || !canSee(viewer, booking)) return null;
  const load = loader(ctx);
  const events = await ctx.db
    .query("bookingEvents")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .take(50);
  return {
    ...(await view(ctx, load, booking, viewer)),
    events: await Promise.all(
      events.map(async (e) => ({
        from: e.from ?? null,
        to: e.to,
        at: e._creationTime,
        actorRole: e.actorId ? ((await load.user(e.actorId))?.role ?? "user") : "system",
        reason: e.reason ?? null,
      })),
    ),
  };
}

const ACTIVITY: Partial<Record<BookingStatus, string>> = {
  requested: "Received a booking request for",
  accepted: "Accepted a booking for",
  rejected: "Rejected a booking for",
  en_route: "Set off for a booking for",
  arrived: "Arrived for a booking for",
  no_show: "Missed a booking for",
  in_progress: "Started a job for",
  completed: "Completed a job for",
  cancelled: "A booking was cancelled for",
  expired: "A booking request expired for",
};

export type ActivityItem = {
  text: string;
  at: number;
  /** The booking state reached, or "reviewed" for a rating. */
  kind: BookingStatus;
  /** The categories of the booking's services (slug and English name). */
  categories: { slug: string; name: string }[];
  rating?: number;
};

/** The dashboard's Recent Activity: booking events and reviews, newest 10. */
export async function recentActivity(ctx: QueryCtx, viewer: Doc<"users">) {
  const pro = await requireOwnProfessional(ctx, viewer);
  const [events, reviews] = await Promise.all([
    ctx.db
      .query("bookingEvents")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
      .order("desc")
      .take(10),
    ctx.db
      .query("reviews")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
      .order("desc")
      .take(10),
  ]);
  // `text` is the English line; `kind`, `categories` and `rating` let the app word it in its language.
  const items: ActivityItem[] = [];
  for (const e of events) {
    const prefix = ACTIVITY[e.to];
    if (prefix === undefined) continue;
    const booking = await ctx.db.get("bookings", e.bookingId);
    const categories = booking
      ? [...new Set(booking.services.map((s) => s.category))].map((slug) => ({
          slug,
          name: categoryName(slug),
        }))
      : [];
    const what = categories.length ? categories.map((c) => c.name).join(", ") : "a service";
    items.push({ text: `${prefix} ${what}`, at: e._creationTime, kind: e.to, categories });
  }
  for (const r of reviews) {
    items.push({
      text: `Received a ${r.rating}-star rating`,
      at: r._creationTime,
      kind: "reviewed",
      categories: [],
      rating: r.rating,
    });
  }
  return items.sort((a, b) => b.at - a.at).slice(0, 10);
}
