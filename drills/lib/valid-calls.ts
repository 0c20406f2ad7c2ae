/**
 * A valid call of every public Convex function and every HTTP route, as each role: the arguments
 * (and, where a call ends an account or a session, or would overwrite a fixture user's canaries, a
 * throwaway caller of the role). The access drill calls them as they are, then with ids put into them.
 */
import { Secret, TOTP } from "otpauth/slim";
import { api } from "../../convex/_generated/api";
import { openBill } from "../../convex/model/bill";
import type { Id } from "../../convex/_generated/dataModel";
import { confirmCash, paymentOf, recordPayment } from "../../convex/model/ledger";
import { refundOf, refundOnCancel } from "../../convex/model/refunds";
import { solveStamp } from "../../convex/rules/signUpWork";
import { START_CODE } from "../../convex/rules/startCode";
import { DEFAULT_JOB_MINUTES } from "../../convex/rules/schedule";
import { freeSlotsFor } from "../../convex/model/slots";
import { hashPassword } from "../../convex/model/passwords";
import {
  PNG_BYTES,
  bookingRow,
  insertAdmin,
  insertCustomer,
  insertPaidJob,
  insertProfessional,
  signUpDraft,
  storeUpload,
} from "../../convex/test.setup";
import type { DrillRole } from "../access-table";
import { PASSWORD, type Accessor, type Fixtures } from "../convex-fixtures";

type Ctx = { f: Fixtures; role: DrillRole; as: Accessor };
export type ValidCall = { args: Record<string, unknown>; as?: Accessor };
type Build = (c: Ctx) => Promise<ValidCall>;

const plain =
  (args: Record<string, unknown> | ((c: Ctx) => Record<string, unknown>)): Build =>
  async (c) => ({ args: typeof args === "function" ? args(c) : args });
const page = { paginationOpts: { numItems: 10, cursor: null } };
const onBooking =
  (status: Parameters<Fixtures["bookingIn"]>[0], extra: Record<string, unknown> = {}): Build =>
  async (c) => ({ args: { bookingId: await c.f.bookingIn(status), ...extra } });
const arrivedBooking = async (c: Ctx, wrongTries: number) => {
  const bookingId = await c.f.bookingIn("arrived");
  await c.f.t.run((ctx) => ctx.db.insert("startCodes", { bookingId, code: "2468", wrongTries }));
  return bookingId;
};
/**
 * An accepted booking of A's with P a few days ahead and a free start time to move it to (the
 * latest ones first: each call's booking takes its own), with A's proposal when `proposed`.
 */
let moves = 0;
const movableBooking = async (c: Ctx, proposed: boolean) => {
  const bookingId = await c.f.bookingIn("accepted");
  return await c.f.t.run(async (ctx) => {
    const now = Date.now();
    await ctx.db.patch("bookings", bookingId, { scheduledFor: now + 3 * 24 * 3_600_000 });
    const booking = (await ctx.db.get("bookings", bookingId))!;
    const pro = (await ctx.db.get("professionals", c.f.p.professionalId))!;
    const slots = await freeSlotsFor(ctx, pro, {
      now,
      jobMinutes: booking.jobMinutes ?? DEFAULT_JOB_MINUTES,
      customerId: c.f.a.userId,
      except: bookingId,
    });
    const to = slots[slots.length - 1 - (moves++ % 20)];
    if (proposed) {
      await ctx.db.insert("reschedules", {
        bookingId,
        customerId: c.f.a.userId,
        professionalId: c.f.p.professionalId,
        from: booking.scheduledFor,
        to,
        status: "proposed",
      });
    }
    return { bookingId, to };
  });
};
const asFresh =
  (args: Record<string, unknown>): Build =>
  async (c) => ({ args, as: await c.f.freshCaller(c.role) });

/** A mobile number no account has yet: a phone number belongs to one account. */
const freshPhone = () => `98${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A browser's PushSubscription JSON for a new device: a P-256 public key and a 16-byte secret. */
async function pushDevice() {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/drill-${Math.random().toString(36).slice(2)}`,
    keys: { p256dh: base64url(raw), auth: base64url(crypto.getRandomValues(new Uint8Array(16))) },
  };
}

/** A new user of the role with a password account (PASSWORD), signed in. */
async function passwordCaller(c: Ctx): Promise<Accessor> {
  const role = c.role === "visitor" ? "customer" : c.role;
  const provider =
    role === "admin" ? "admin" : /customer/i.test(role) ? "customer" : "professional";
  const name = `Password ${Math.random().toString(36).slice(2, 8)}`;
  const user =
    provider === "admin"
      ? await insertAdmin(c.f.t, name.toLowerCase().replace(" ", "-"))
      : provider === "customer"
        ? await insertCustomer(c.f.t, name)
        : await insertProfessional(c.f.t, { name });
  const secret = await hashPassword(PASSWORD);
  await c.f.t.run((ctx) =>
    ctx.db.insert("authAccounts", {
      userId: user.userId,
      provider,
      providerAccountId: `${user.userId}@drill.example.np`,
      secret,
    }),
  );
  return await c.f.sessionFor(role, user.userId);
}

/** A fresh "nearest available now" search by A, offered to P. */
async function searchOfA(c: Ctx) {
  return await c.f.t.run(async (ctx) => {
    const requestId = await ctx.db.insert("dispatchRequests", {
      customerId: c.f.a.userId,
      specialty: "electrician",
      city: "kathmandu",
      services: [
        { id: c.f.service._id, name: c.f.service.name, category: "electrical", price: 500 },
      ],
      price: 500,
      visitChargeNrs: 0,
      address: "Ward 2, Thamel",
      pin: { lat: 27.715, lng: 85.312 },
      status: "searching",
      deadline: Date.now() + 600_000,
      updatedAt: Date.now(),
    });
    const offerId = await ctx.db.insert("dispatchOffers", {
      requestId,
      professionalId: c.f.p.professionalId,
      professionalUserId: c.f.p.userId,
      distanceMetres: 800,
      status: "offered",
      expiresAt: Date.now() + 90_000,
    });
    return { requestId, offerId };
  });
}

/** An open report by A on a fresh booking of A's with P. */
async function reportOnFixture(c: Ctx, on?: Awaited<ReturnType<Fixtures["bookingIn"]>>) {
  const bookingId = on ?? (await c.f.bookingIn("completed"));
  return await c.f.t.run((ctx) =>
    ctx.db.insert("reports", {
      reporterId: c.f.a.userId,
      bookingId,
      category: "rude",
      text: "Shouted at me on the phone.",
      status: "open",
    }),
  );
}

/** A fresh review of P's work held for an admin: A's job was marked done within seconds. */
async function heldReview(c: Ctx) {
  const bookingId = await c.f.bookingIn("reviewed");
  return await c.f.t.run((ctx) =>
    ctx.db.insert("reviews", {
      bookingId,
      professionalId: c.f.p.professionalId,
      customerId: c.f.a.userId,
      rating: 5,
      held: true,
    }),
  );
}

/** Bookings the drill has requested: each takes a time of its own (another customer's request holds it). */
let createdBookings = 0;

/** A fresh booking of A's with P, its job done and its bill open (Nrs. 500). */
async function payableBookingOfA(c: Ctx) {
  const bookingId = await c.f.bookingIn("completed");
  await c.f.t.run((ctx) => openBill(ctx, bookingId, [{ name: "Fan repair", price: 500 }], 0));
  return bookingId;
}

/** A fresh payable booking of A's with P whose cash P recorded, waiting for A's answer. */
async function cashAwaitingOfA(c: Ctx) {
  const bookingId = await payableBookingOfA(c);
  await c.f.t.run((ctx) =>
    ctx.db.insert("payments", {
      bookingId,
      customerId: c.f.a.userId,
      professionalId: c.f.p.professionalId,
      method: "cash",
      reference: `cash:${bookingId}`,
      amountPaisa: 50_000,
      cash: { state: "awaiting" },
    }),
  );
  return bookingId;
}

/** A fresh booking of A's with P whose recorded cash A disputed: its report. */
async function cashDisputeOfA(c: Ctx) {
  const bookingId = await payableBookingOfA(c);
  return await c.f.t.run(async (ctx) => {
    const reportId = await ctx.db.insert("reports", {
      reporterId: c.f.a.userId,
      bookingId,
      category: "cash_dispute",
      text: "I paid less than the bill says.",
      status: "open",
    });
    await ctx.db.insert("payments", {
      bookingId,
      customerId: c.f.a.userId,
      professionalId: c.f.p.professionalId,
      method: "cash",
      reference: `cash:${bookingId}`,
      amountPaisa: 50_000,
      cash: { state: "disputed", decidedAt: Date.now(), reportId },
    });
    return reportId;
  });
}

/** A refund due to A for a fresh job with P, paid in eSewa while under way and then cancelled. */
async function refundDueToA(c: Ctx) {
  const bookingId = await c.f.bookingIn("in_progress");
  return await c.f.t.run(async (ctx) => {
    await openBill(ctx, bookingId, [{ name: "Fan repair", price: 500 }], 0);
    await recordPayment(ctx, {
      bookingId,
      method: "esewa",
      amountPaisa: 50_000,
      reference: `esewa:${bookingId}`,
    });
    const booking = (await ctx.db.get("bookings", bookingId))!;
    await ctx.db.patch("bookings", bookingId, { status: "cancelled" });
    await refundOnCancel(ctx, booking);
    return (await refundOf(ctx, bookingId))!._id;
  });
}

/** A payment attempt of A's on a fresh payable booking with P, waiting at the gateway. */
async function attemptOfA(c: Ctx, method: "esewa" | "khalti") {
  const bookingId = await payableBookingOfA(c);
  const reference = crypto.randomUUID();
  const pidx = method === "khalti" ? `pidx${reference.slice(0, 8)}` : undefined;
  const attemptId = await c.f.t.run((ctx) =>
    ctx.db.insert("paymentAttempts", {
      bookingId,
      customerId: c.f.a.userId,
      method,
      reference,
      ...(pidx === undefined ? {} : { pidx }),
      amountPaisa: 50_000,
      state: "open",
      checks: 0,
      updatedAt: Date.now(),
    }),
  );
  return { attemptId, reference, pidx: pidx ?? "" };
}

/** `module:function` → valid arguments. */
export const VALID_CALLS: Record<string, Build> = {
  // A successful sign-in ends the caller's current session (auth's createNewAndDeleteExistingSession),
  // so it runs on a throwaway session of the role's user.
  "auth:signIn": async (c) => ({
    args: {
      provider: "customer",
      params: { flow: "signIn", email: c.f.accounts.customerEmail, password: PASSWORD },
    },
    as: await c.f.freshSession(c.role),
  }),
  "auth:signOut": async (c) => ({ args: {}, as: await c.f.freshSession(c.role) }),
  "auth:isAuthenticated": plain({}),
  "catalog:categories": plain({}),
  "catalog:serviceNames": plain({ category: "electrical" }),
  "catalog:serviceDetails": plain((c) => ({
    category: "electrical",
    serviceName: c.f.service.name,
    location: "kathmandu",
  })),
  "catalog:search": plain({ text: "fan" }),
  "catalog:tileMarble": plain({}),
  "catalog:setJobMinutes": plain((c) => ({ serviceId: c.f.service._id, minutes: 120 })),
  "settings:get": plain({}),
  "reviews:testimonials": plain({}),
  "contact:send": plain({
    name: "Drill Sender",
    email: "drill@example.np",
    message: "Hello from the access drill.",
  }),
  // a visitor asks with a sign-up draft of their own; signed-in users need none
  "files:generateUploadUrl": async (c) => ({
    args: c.role === "visitor" ? { draft: await signUpDraft(c.f.t) } : {},
  }),
  "signUpDrafts:create": async () => ({ args: { stamp: await solveStamp() } }),
  // a new address each time: an address may ask only a few times an hour
  "passwordReset:request": plain(() => ({
    role: "customer",
    contact: `drill.${Math.random().toString(36).slice(2)}@example.np`,
  })),
  // a new number each time: a number may ask only a few times an hour
  "signInCodes:request": plain(() => ({
    role: "customer",
    phone: `98${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
  })),
  // a throwaway account with a password of its own: the fixture users' sign-ins keep theirs
  "passwordChange:change": async (c) => ({
    args: { currentPassword: PASSWORD, newPassword: `${PASSWORD} changed` },
    as: c.role === "visitor" ? c.as : await passwordCaller(c),
  }),
  "devices:endedSession": plain({}),
  "devices:seen": plain({ userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile" }),
  "devices:list": plain({}),
  // a throwaway user's second session: the fixture users' sessions stay for the calls after it
  "devices:signOut": async (c) => {
    if (c.role === "visitor") return { args: { sessionId: c.f.a.sessionId } };
    const as = await c.f.freshCaller(c.role);
    const userId = c.f.viewerOf(as).userId as Id<"users">;
    const sessionId = await c.f.t.run((ctx) =>
      ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
    );
    return { args: { sessionId }, as };
  },
  "devices:signOutOthers": asFresh({}),
  // a fresh account each time: the fixture users' addresses stay unverified for the calls after it
  "contactVerification:sendCode": async (c) => {
    const as = await c.f.freshCaller(c.role);
    // admins are created without a phone number: give this one a mobile to send to; a fresh
    // professional's is verified (admins verify only such): this one's is not yet
    if (c.role !== "visitor") {
      const userId = c.f.viewerOf(as).userId as Id<"users">;
      await c.f.t.run((ctx) =>
        ctx.db.patch(
          "users",
          userId,
          c.role === "admin" ? { phone: freshPhone() } : { phoneVerificationTime: undefined },
        ),
      );
    }
    return { args: { kind: "phone" }, as };
  },
  "contactVerification:confirm": asFresh({ kind: "phone", code: "000000" }),
  "twoFactor:status": plain({}),
  // a fresh admin without two-factor: setting it up is all such an admin may do
  "twoFactor:begin": async (c) => ({
    args: {},
    as: await c.f.freshCaller(c.role, { twoFactor: false }),
  }),
  // a wrong code (answered null, counted) against a fresh admin's setup and enrolment
  "twoFactor:confirm": async (c) => {
    const as = await c.f.freshCaller(c.role, { twoFactor: false });
    if (c.role === "admin") await as.mutation(api.twoFactor.begin, {});
    return { args: { code: "000000" }, as };
  },
  "twoFactor:replaceRecovery": async (c) => {
    const as = await c.f.freshCaller(c.role, { twoFactor: false });
    if (c.role === "admin") {
      const { key } = await as.mutation(api.twoFactor.begin, {});
      await as.mutation(api.twoFactor.confirm, {
        code: TOTP.generate({ secret: Secret.fromBase32(key) }),
      });
    }
    return { args: { code: "000000" }, as };
  },
  "professionals:search": plain({ specialty: "electrician", city: "kathmandu" }),
  "professionals:get": plain((c) => ({ professionalId: c.f.p.professionalId })),
  "professionals:me": plain({}),
  "professionals:setAvailability": plain({ available: true }),
  // all day: later bookings:create calls stay in hours
  "professionals:setWorkingHours": plain({
    hours: { days: [0, 1, 2, 3, 4, 5, 6], start: 0, end: 1440 },
  }),
  // A verified professional may not replace documents: professionals call as one waiting for review.
  "professionals:resubmitDocuments": async (c) => {
    const waiting = await insertProfessional(c.f.t, { verified: false });
    const role = c.role;
    return {
      args: { trainingCertificate: await storeUpload(c.f.t, { userId: waiting.userId }) },
      ...(role === "professional" || role === "otherProfessional"
        ? { as: await c.f.sessionFor(role, waiting.userId) }
        : {}),
    };
  },
  // a fresh professional: P's and Q's exact positions are canaries
  "locations:update": asFresh({ longitude: 85.32, latitude: 27.71 }),
  "locations:current": plain({}),
  "locations:onMap": plain({}),
  "locations:marker": plain((c) => ({ professionalId: c.f.p.professionalId })),
  "locations:forBooking": plain((c) => ({ bookingId: c.f.booking })),
  "locations:forActiveBookings": plain({}),
  // a new caller of the role each time: the fixture customer's open bookings would reach the request limits
  "bookings:create": async (c) => ({
    args: {
      professionalId: c.f.p.professionalId,
      serviceIds: [c.f.service._id],
      address: "Ward 2, Thamel",
      city: "kathmandu",
      // clear of the fixture jobs and of the requests before it (rules/schedule.ts)
      scheduledFor: Date.now() + (10 + 3 * createdBookings++) * 3_600_000,
    },
    as: await c.f.freshCaller(c.role),
  }),
  "bookings:freeSlots": plain((c) => ({
    professionalId: c.f.p.professionalId,
    serviceIds: [c.f.service._id],
    now: Date.now(),
  })),
  "bookings:accept": onBooking("requested"),
  "bookings:reject": onBooking("requested"),
  "bookings:startTrip": onBooking("accepted"),
  "bookings:arrive": onBooking("en_route"),
  // an arrived job, with its code (rules/startCode.ts) and, for the customer's tap, every try spent
  "bookings:start": async (c) => ({
    args: { bookingId: await arrivedBooking(c, 0), code: "2468" },
  }),
  "bookings:confirmStart": async (c) => ({
    args: { bookingId: await arrivedBooking(c, START_CODE.tries) },
  }),
  // an accepted job whose professional is long overdue (rules/noShow.ts)
  "bookings:markNoShow": async (c) => {
    const bookingId = await c.f.bookingIn("accepted");
    await c.f.t.run((ctx) =>
      ctx.db.patch("bookings", bookingId, { scheduledFor: Date.now() - 2 * 3_600_000 }),
    );
    return { args: { bookingId } };
  },
  "reschedules:freeSlots": plain((c) => ({ bookingId: c.f.booking, now: Date.now() })),
  "reschedules:propose": async (c) => ({ args: await movableBooking(c, false) }),
  "reschedules:accept": async (c) => ({
    args: { bookingId: (await movableBooking(c, true)).bookingId },
  }),
  "reschedules:decline": async (c) => ({
    args: { bookingId: (await movableBooking(c, true)).bookingId, reason: "Away that day" },
  }),
  "reschedules:withdraw": async (c) => ({
    args: { bookingId: (await movableBooking(c, true)).bookingId },
  }),
  "noShows:forProfessional": plain((c) => ({ professionalId: c.f.p.professionalId })),
  "noShows:clearHold": plain((c) => ({ professionalId: c.f.p.professionalId })),
  "bookings:complete": onBooking("in_progress"),
  "bookings:cancel": onBooking("accepted", { reason: "Plans changed" }),
  // a job the professional marked done that its customer has not confirmed yet
  "bookings:confirmDone": async (c) => {
    const bookingId = await c.f.bookingIn("completed");
    await c.f.t.run((ctx) =>
      ctx.db.patch("bookings", bookingId, { confirmedBy: undefined, confirmedAt: undefined }),
    );
    return { args: { bookingId } };
  },
  "bookings:forProfessional": plain(page),
  "bookings:forCustomer": plain(page),
  "bookings:get": plain((c) => ({ bookingId: c.f.booking })),
  "bookings:recentActivity": plain({}),
  "bills:get": plain((c) => ({ bookingId: c.f.booking })),
  "bills:propose": onBooking("in_progress", {
    kind: "part",
    label: "Capacitor",
    amountPaisa: 45_000,
    reason: "The old one is burnt",
  }),
  // a fresh item proposed by P on a job of A's
  "bills:decide": async (c) => {
    const bookingId = await c.f.bookingIn("in_progress");
    const lineId = await c.f.t.run((ctx) =>
      ctx.db.insert("billLines", {
        bookingId,
        kind: "part",
        label: "Capacitor",
        amountPaisa: 45_000,
        status: "proposed",
        reason: "The old one is burnt",
      }),
    );
    return { args: { lineId, approve: true } };
  },
  "cash:markReceived": async (c) => ({
    args: { bookingId: await payableBookingOfA(c), amountPaisa: 50_000 },
  }),
  "cash:confirm": async (c) => ({ args: { bookingId: await cashAwaitingOfA(c) } }),
  "cash:notPaid": async (c) => {
    const bookingId = await cashAwaitingOfA(c);
    await c.f.t.run((ctx) => ctx.db.patch("bookings", bookingId, { status: "cancelled" }));
    return { args: { bookingId } };
  },
  "cash:dispute": async (c) => ({
    args: { bookingId: await cashAwaitingOfA(c), text: "I paid less than the bill says." },
  }),
  // a booking of A's with P, paid in cash and confirmed
  "receipts:get": async (c) => {
    const bookingId = await cashAwaitingOfA(c);
    const payment = await c.f.t.run((ctx) => paymentOf(ctx, bookingId));
    await c.f.t.run((ctx) => confirmCash(ctx, payment!._id));
    return { args: { bookingId } };
  },
  "reviews:create": onBooking("completed", { rating: 5, comment: "Good work" }),
  "reviews:forProfessional": plain((c) => ({ professionalId: c.f.p.professionalId })),
  "reviews:page": plain((c) => ({ professionalId: c.f.p.professionalId, ...page })),
  // a fresh review of P's work each time: P may reply once
  "reviews:reply": async (c) => {
    const bookingId = await c.f.bookingIn("reviewed");
    const reviewId = await c.f.t.run((ctx) =>
      ctx.db.insert("reviews", {
        bookingId,
        professionalId: c.f.p.professionalId,
        customerId: c.f.a.userId,
        rating: 5,
      }),
    );
    return { args: { reviewId, text: "Thank you!" } };
  },
  "notifications:list": plain(page),
  "notifications:unreadCount": plain({}),
  "notifications:markRead": plain({}),
  "presence:heartbeat": plain({}),
  "presence:leave": plain({}),
  "presence:online": plain({}),
  "users:viewer": plain({}),
  "users:accountStatus": plain({}),
  // a fresh user: the fixture users' homes and phones are canaries
  "users:updateProfile": async (c) => ({
    args: { name: "Same Name", phone: freshPhone(), address: "Ward 1, Patan", zipCode: "44700" },
    as: await c.f.freshCaller(c.role),
  }),
  "users:setLanguage": plain({ language: "ne-NP" }),
  "users:exportMyData": plain({}),
  "users:deleteAccount": async (c) => ({
    args: { password: PASSWORD },
    as: c.role === "visitor" ? c.as : await passwordCaller(c),
  }),
  "push:config": plain({}),
  "push:subscribe": async () => ({ args: { ...(await pushDevice()), label: "Drill phone" } }),
  "push:unsubscribe": async () => ({ args: { endpoint: (await pushDevice()).endpoint } }),
  "push:status": async () => ({ args: { endpoint: (await pushDevice()).endpoint } }),
  "push:dashboardSignals": plain({}),
  "admin:technicians": plain({ ...page }),
  "admin:technician": plain((c) => ({ professionalId: c.f.q.professionalId })),
  "admin:users": plain({}),
  "admin:stats": plain({}),
  "admin:verify": async (c) => {
    const waiting = await insertProfessional(c.f.t, { name: "To Verify", verified: false });
    return { args: { professionalId: waiting.professionalId, decision: "verified" } };
  },
  "admin:setAvailability": plain((c) => ({
    professionalId: c.f.q.professionalId,
    available: true,
  })),
  "admin:updateSettings": plain({ bannerText: "Drill banner" }),
  "admin:messages": plain({}),
  "admin:unreadMessages": plain({}),
  "adminBookings:list": plain({ status: "accepted", ...page }),
  "adminBookings:get": plain((c) => ({ bookingId: c.f.booking })),
  "adminBookings:cancel": onBooking("accepted", { reason: "A duplicate of another booking." }),
  "adminAccounts:get": plain((c) => ({ userId: c.f.a.userId })),
  // a throwaway account each time: the fixture users' sessions must live on (suspension ends them)
  "adminAccounts:suspend": async (c) => ({
    args: {
      userId: (await insertCustomer(c.f.t, "To Suspend")).userId,
      reason: "Drill suspension",
    },
  }),
  "adminAccounts:restore": async (c) => {
    const { userId } = await insertCustomer(c.f.t, "To Restore");
    await c.f.t.run((ctx) =>
      ctx.db.patch("users", userId, {
        suspended: { at: Date.now(), by: c.f.admin.userId, reason: "Drill suspension" },
      }),
    );
    return { args: { userId, reason: "Drill restoration" } };
  },
  "adminReviews:held": plain({}),
  "adminReviews:publish": async (c) => ({ args: { reviewId: await heldReview(c) } }),
  "adminReviews:remove": async (c) => ({ args: { reviewId: await heldReview(c) } }),
  "adminReports:list": plain({ status: "open", ...page }),
  "adminReports:openCount": plain({}),
  "adminReports:get": async (c) => ({ args: { reportId: await reportOnFixture(c) } }),
  "adminReports:resolve": async (c) => ({
    args: { reportId: await reportOnFixture(c), note: "Spoke with both sides" },
  }),
  // a fresh booking between A and P each time: one open report per reporter and target
  "reports:create": onBooking("completed", {
    target: "booking",
    category: "poor_work",
    text: "The fan still does not work after the repair.",
  }),
  "reports:mine": plain((c) => ({ bookingId: c.f.booking })),
  "chat:messages": plain((c) => ({ bookingId: c.f.booking, ...page })),
  "chat:state": plain((c) => ({ bookingId: c.f.booking })),
  "chat:unread": plain({}),
  "chat:send": plain((c) => ({ bookingId: c.f.booking, text: "Which gate should I use?" })),
  "chat:markRead": plain((c) => ({ bookingId: c.f.booking })),
  "chat:typing": plain((c) => ({ bookingId: c.f.booking })),
  "chat:openAsAdmin": async (c) => {
    const bookingId = await c.f.bookingIn("completed");
    await reportOnFixture(c, bookingId);
    return { args: { bookingId } };
  },
  "wallets:start": async (c) => ({
    args: { bookingId: await payableBookingOfA(c), method: "esewa" },
  }),
  "wallets:attempt": async (c) => ({
    args: { attemptId: (await attemptOfA(c, "esewa")).attemptId },
  }),
  "wallets:latest": plain((c) => ({ bookingId: c.f.booking })),
  "earnings:jobs": plain(page),
  "earnings:summary": plain({ since: 0 }),
  "cashDisputes:open": plain({}),
  "cashDisputes:settle": async (c) => ({
    args: { reportId: await cashDisputeOfA(c), outcome: "paid", reason: "The receipt shows it." },
  }),
  "revenue:summary": plain({ bounds: [0, 24 * 3_600_000] }),
  "refunds:due": plain({}),
  "refunds:markRefunded": async (c) => ({
    args: { refundId: await refundDueToA(c), reference: "ESEWA-RF-1" },
  }),
  "payouts:balances": plain(page),
  "payouts:history": plain(page),
  "payouts:ledgerExport": plain({ from: 0, to: 24 * 3_600_000 }),
  // a professional with Nrs. 900 due: a Nrs. 1,000 job, 10% commission
  "payouts:record": async (c) => {
    const customer = await insertCustomer(c.f.t, "Payout Customer");
    const pro = await insertProfessional(c.f.t, { name: "Payout Professional" });
    await insertPaidJob(c.f.t, customer.userId, pro, { rupees: 1000 });
    return {
      args: {
        professionalId: pro.professionalId,
        method: "bank",
        reference: "NIC Asia 778899",
        amountPaisa: 90_000,
        seenDuePaisa: 90_000,
      },
    };
  },
  "settlements:history": plain(page),
  // a professional who owes Nrs. 100: a Nrs. 1,000 cash job, 10% commission
  "settlements:record": async (c) => {
    const customer = await insertCustomer(c.f.t, "Settlement Customer");
    const pro = await insertProfessional(c.f.t, { name: "Settlement Professional" });
    await insertPaidJob(c.f.t, customer.userId, pro, { rupees: 1000, method: "cash" });
    return {
      args: {
        professionalId: pro.professionalId,
        method: "cash",
        reference: "Cash receipt 5566",
        amountPaisa: 10_000,
      },
    };
  },
  "wallets:esewaReturned": async (c) => ({
    args: { transactionUuid: (await attemptOfA(c, "esewa")).reference },
  }),
  "wallets:khaltiReturned": async (c) => ({
    args: { pidx: (await attemptOfA(c, "khalti")).pidx },
  }),
  // a throwaway customer each time: one search at a time per customer
  "dispatch:request": async (c) => ({
    args: {
      serviceIds: [c.f.service._id],
      city: "kathmandu",
      address: "Ward 2, Thamel",
      pin: { lat: 27.715, lng: 85.312 },
    },
    as: await c.f.freshCaller(c.role),
  }),
  "dispatch:cancel": async (c) => ({ args: { requestId: (await searchOfA(c)).requestId } }),
  "dispatch:get": async (c) => ({ args: { requestId: (await searchOfA(c)).requestId } }),
  // a no-show with a pin; the customer's is a fresh one's (A has searches running: one at a time)
  "dispatch:redispatch": async (c) => {
    const as = c.role === "customer" ? await c.f.freshCaller("customer") : c.as;
    const viewer = c.f.viewerOf(as);
    const customerId =
      c.role === "customer" && "userId" in viewer && viewer.userId !== undefined
        ? (viewer.userId as Id<"users">)
        : c.f.a.userId;
    const { service } = c.f;
    const bookingId = await c.f.t.run((ctx) =>
      ctx.db.insert(
        "bookings",
        bookingRow(customerId, c.f.p, "no_show", {
          services: [
            { id: service._id, name: service.name, category: service.category, price: 500 },
          ],
          pin: { lat: 27.715, lng: 85.312 },
          scheduledFor: Date.now() - 2 * 3_600_000,
          price: 500,
        }),
      ),
    );
    return { args: { bookingId }, as };
  },
  "dispatch:myOffers": plain({}),
  "dispatch:accept": async (c) => ({ args: { offerId: (await searchOfA(c)).offerId } }),
  "dispatch:decline": async (c) => ({ args: { offerId: (await searchOfA(c)).offerId } }),
  "admin:setMessageHandled": async (c) => ({
    args: {
      messageId: await c.f.t.run((ctx) =>
        ctx.db.insert("contactMessages", {
          name: "Maya Rai",
          email: "maya@example.np",
          message: "Do you serve Butwal?",
        }),
      ),
      handled: true,
    },
  }),
};

export type ValidRequest = { path: string; init: RequestInit; as?: Accessor };

const json = (body: unknown): RequestInit => ({
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** A registration with a solved proof of work: the sweep registers more often than stamp-less ones share. */
async function registrationForm(professional: boolean): Promise<FormData> {
  const form = new FormData();
  const fields: Record<string, string> = {
    fullname: "Drill Register",
    email: `reg.${Math.random().toString(36).slice(2, 10)}@example.np`,
    phoneNumber: freshPhone(),
    password: "secret pass",
    address: "Ward 7, Biratnagar",
    zipCode: "56613",
    stamp: await solveStamp(),
  };
  if (professional)
    Object.assign(fields, { specialty: "Plumber", city: "Pokhara", state: "Gandaki" });
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const png = () => new Blob([PNG_BYTES as BlobPart], { type: "image/png" });
  if (professional)
    for (const k of ["citizenshipFront", "citizenshipBack", "trainingCertificate"])
      form.set(k, png(), `${k}.png`);
  return form;
}

/** A valid request to a route (pattern from getRoutes, "*" prefixes filled in). */
export async function validRequest(
  f: Fixtures,
  method: string,
  pattern: string,
  role: DrillRole,
): Promise<ValidRequest> {
  const sendsBody = method === "POST" || method === "PUT" || method === "PATCH";
  const body = (init: RequestInit) => (sendsBody ? init : {});
  // a form costs a proof of work: only requests that send one get it
  const form = async (professional: boolean) =>
    sendsBody ? { body: await registrationForm(professional) } : {};
  switch (pattern) {
    // Logins run on throwaway sessions: a successful sign-in ends the session of the token it carries.
    case "/api/admin/login":
      return {
        path: pattern,
        init: body(json({ username: "drillboss", password: f.accounts.admin.password })),
        as: await f.freshSession(role),
      };
    case "/api/users/login":
      return {
        path: pattern,
        init: body(json({ email: f.accounts.customerEmail, password: PASSWORD })),
        as: await f.freshSession(role),
      };
    case "/api/technicians/login":
      return {
        path: pattern,
        init: body(json({ email: f.accounts.professionalEmail, password: PASSWORD })),
        as: await f.freshSession(role),
      };
    // so does registering (sign-up signs in, then the route ends that new session)
    case "/api/users/register":
      return {
        path: pattern,
        init: await form(false),
        as: await f.freshSession(role),
      };
    case "/api/technicians/register":
      return {
        path: pattern,
        init: await form(true),
        as: await f.freshSession(role),
      };
    case "/api/signout":
      return { path: pattern, init: {}, as: await f.freshSession(role) };
    case "/api/technicians/search":
      return { path: `${pattern}?specialty=Electrician&city=Kathmandu`, init: {} };
    case "/api/services/*":
      return {
        path:
          role.length % 2 === 0
            ? "/api/services/category/electrical"
            : `/api/services/electrical/${encodeURIComponent(f.service.name)}/kathmandu`,
        init: {},
      };
    case "/api/current-location": {
      // a fresh caller of the role: P's and Q's exact positions are canaries
      const as = await f.freshCaller(role);
      await f.resetLocations();
      const userId = f.viewerOf(as).userId ?? "nobody";
      return {
        path: pattern,
        init: body(json({ userId, longitude: 85.31, latitude: 27.7 })),
        as,
      };
    }
    case "/api/bookings/*":
      if (method === "PUT") {
        return {
          path: `/api/bookings/${await f.bookingIn("requested")}`,
          init: body(json({ status: "accepted" })),
        };
      }
      return { path: `/api/bookings/${f.a.userId}`, init: body(json({})) };
    case "/api/uploads": {
      const url = new URL(
        role === "visitor"
          ? await f.t.mutation(api.files.generateUploadUrl, { draft: await signUpDraft(f.t) })
          : await f.callers[role].mutation(api.files.generateUploadUrl, {}),
      );
      return {
        path: `${url.pathname}${url.search}`,
        init: body({ headers: { "Content-Type": "image/png" }, body: PNG_BYTES as BodyInit }),
      };
    }
    case "/api/*":
      return { path: "/api/no-such-endpoint", init: {} };
    default:
      return { path: pattern, init: body(json({})) };
  }
}
