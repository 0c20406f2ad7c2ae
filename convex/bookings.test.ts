import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { BOOKING_LIMITS } from "./rules/limits";
import {
  errorCode,
  errorMessage,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  startWithCustomersCode,
  type TestConvex,
} from "./test.setup";
import type { CitySlug } from "./validators";

const HOUR = 60 * 60 * 1000;

async function serviceId(t: TestConvex, category: string, name: string): Promise<Id<"services">> {
  const s = await t.run((ctx) =>
    ctx.db
      .query("services")
      .withIndex("by_category_and_name", (q) => q.eq("category", category).eq("name", name))
      .unique(),
  );
  return s!._id;
}

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, {
    name: "Ram Thapa",
    specialty: "electrician",
    city: "kathmandu",
  });
  const otherPro = await insertProfessional(t, {
    name: "Hari Rai",
    specialty: "electrician",
    city: "kathmandu",
  });
  const admin = await insertAdmin(t);
  const wiring = await serviceId(t, "electrical", "House Wiring");
  const fan = await serviceId(t, "electrical", "Fan Installation");
  const args = {
    professionalId: pro.professionalId,
    serviceIds: [wiring, fan],
    address: "House 12, Baneshwor",
    city: "kathmandu" as CitySlug,
    scheduledFor: Date.now() + HOUR / 2,
    note: "Please bring a ladder",
  };
  const book = (over: Partial<typeof args> = {}) =>
    customer.as.mutation(api.bookings.create, { ...args, ...over });
  return { t, customer, otherCustomer, pro, otherPro, admin, wiring, fan, args, book };
}

const status = (t: TestConvex, id: Id<"bookings">) =>
  t.run(async (ctx) => (await ctx.db.get("bookings", id))!.status);
const events = (t: TestConvex, id: Id<"bookings">) =>
  t.run((ctx) =>
    ctx.db
      .query("bookingEvents")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", id))
      .collect(),
  );
const notificationsOf = (t: TestConvex, userId: Id<"users">) =>
  t.run((ctx) =>
    ctx.db
      .query("notifications")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .collect(),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe("bookings:create", () => {
  test("a customer books; the price comes from the catalogue for the booking's city", async () => {
    const { t, customer, pro, book } = await setup();
    const id = await book();
    const booking = await t.run((ctx) => ctx.db.get("bookings", id));
    // House Wiring 3500 × 1.3 = 4550, Fan Installation 500 × 1.3 = 650 in Kathmandu
    expect(booking).toMatchObject({
      status: "requested",
      price: 5200,
      customerId: customer.userId,
      professionalUserId: pro.userId,
    });
    expect(booking!.services.map((s) => [s.name, s.price])).toEqual([
      ["House Wiring", 4550],
      ["Fan Installation", 650],
    ]);
    expect(await events(t, id)).toMatchObject([{ to: "requested", actorId: customer.userId }]);
    // the app words it from kind + params in the reader's language; title/body stay for API clients
    expect(await notificationsOf(t, pro.userId)).toMatchObject([
      {
        kind: "booking.requested",
        bookingId: id,
        params: {
          actor: "Sita Sharma",
          actorRole: "customer",
          services: "House Wiring\nFan Installation",
          city: "kathmandu",
        },
      },
    ]);
  });

  test("the same services cost less in Nepalgunj", async () => {
    const { t, customer, args } = await setup();
    const pro = await insertProfessional(t, { specialty: "electrician", city: "nepalgunj" });
    const id = await customer.as.mutation(api.bookings.create, {
      ...args,
      professionalId: pro.professionalId,
      city: "nepalgunj",
    });
    expect((await t.run((ctx) => ctx.db.get("bookings", id)))!.price).toBe(4000);
  });

  test("visitors, professionals and admins cannot book", async () => {
    const { t, pro, admin, args } = await setup();
    expect(await errorCode(t.mutation(api.bookings.create, args))).toBe("UNAUTHENTICATED");
    expect(await errorCode(pro.as.mutation(api.bookings.create, args))).toBe("FORBIDDEN");
    expect(await errorCode(admin.as.mutation(api.bookings.create, args))).toBe("FORBIDDEN");
  });

  test("refused: unverified or unavailable professional, past slot, wrong specialty, city not served", async () => {
    const { t, customer, args } = await setup();
    const book = (over: Partial<typeof args>) =>
      customer.as.mutation(api.bookings.create, { ...args, ...over });
    const unverified = await insertProfessional(t, { verified: false });
    const away = await insertProfessional(t, { available: false });
    // hidden from customers until verified: answered as a missing professional
    expect(await errorCode(book({ professionalId: unverified.professionalId }))).toBe("NOT_FOUND");
    expect(await errorCode(book({ professionalId: away.professionalId }))).toBe(
      "PROFESSIONAL_UNAVAILABLE",
    );
    expect(await errorCode(book({ scheduledFor: Date.now() - HOUR }))).toBe("SLOT_IN_PAST");
    expect(
      await errorCode(book({ serviceIds: [await serviceId(t, "plumbing", "Tap & Mixer Repair")] })),
    ).toBe("SERVICE_NOT_OFFERED");
    expect(await errorCode(book({ city: "pokhara" }))).toBe("OUT_OF_AREA");
    expect(await errorCode(book({ serviceIds: [] }))).toBe("NO_SERVICES");
    expect(await errorCode(book({ address: "  " }))).toBe("INVALID_ADDRESS");
    expect(await errorCode(book({ note: "x".repeat(1001) }))).toBe("NOTE_TOO_LONG");
  });

  test("refused: a service not offered in the booking's city", async () => {
    const { t, wiring, book } = await setup();
    await t.run((ctx) =>
      ctx.db.patch("services", wiring, { availableCities: [{ name: "pokhara", price: 4000 }] }),
    );
    expect(await errorCode(book())).toBe("SERVICE_UNAVAILABLE");
  });
});

describe("booking request limits", () => {
  test("a flood of requests to one professional stops at the open limit; a cancelled one makes room", async () => {
    const { t, customer, pro, book } = await setup();
    const made: Id<"bookings">[] = [];
    const codes: string[] = [];
    for (let i = 0; i < 50; i++) {
      try {
        made.push(await book());
      } catch (error) {
        codes.push(await errorCode(Promise.reject(error)));
      }
    }
    expect(made).toHaveLength(BOOKING_LIMITS.openPerProfessional);
    expect(new Set(codes)).toEqual(new Set(["TOO_MANY_OPEN_REQUESTS"]));
    expect(await errorMessage(book())).toBe(
      `You already have ${BOOKING_LIMITS.openPerProfessional} open bookings with this professional. Wait for an answer, or cancel one.`,
    );
    // one notification and one scheduled expiry per request made, none for refused ones
    expect(await notificationsOf(t, pro.userId)).toHaveLength(made.length);
    expect(
      await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect()),
    ).toHaveLength(made.length);

    await customer.as.mutation(api.bookings.cancel, { bookingId: made[0], reason: "Booked twice" });
    await book();
  });

  test("accepted and under-way bookings count as open; finished ones do not", async () => {
    const { t, customer, pro, book } = await setup();
    const first = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: first });
    await pro.as.mutation(api.bookings.startTrip, { bookingId: first });
    const later = { scheduledFor: Date.now() + 5 * HOUR };
    await book(later);
    expect(await errorCode(book(later))).toBe("TOO_MANY_OPEN_REQUESTS");
    await pro.as.mutation(api.bookings.arrive, { bookingId: first });
    await startWithCustomersCode(customer.as, pro.as, first);
    await pro.as.mutation(api.bookings.complete, { bookingId: first });
    await book(later);
    expect(await status(t, first)).toBe("completed");
  });

  test("open bookings with anyone are bounded; other customers are not affected", async () => {
    const { t, customer, otherCustomer, args } = await setup();
    const pros = [];
    for (let i = 0; i < BOOKING_LIMITS.openOverall / BOOKING_LIMITS.openPerProfessional + 1; i++) {
      pros.push(
        await insertProfessional(t, {
          name: `Pro ${i}`,
          specialty: "electrician",
          city: "kathmandu",
        }),
      );
    }
    let made = 0;
    for (const p of pros) {
      for (let j = 0; j < BOOKING_LIMITS.openPerProfessional; j++) {
        const call = customer.as.mutation(api.bookings.create, {
          ...args,
          professionalId: p.professionalId,
        });
        if (made < BOOKING_LIMITS.openOverall) {
          await call;
          made++;
        } else {
          expect(await errorMessage(call)).toBe(
            `You have ${BOOKING_LIMITS.openOverall} open bookings. Wait for answers, or cancel one, before booking again.`,
          );
        }
      }
    }
    await otherCustomer.as.mutation(api.bookings.create, {
      ...args,
      professionalId: pros[0].professionalId,
      scheduledFor: args.scheduledFor + 5 * HOUR,
    });
  });

  test(`at most ${BOOKING_LIMITS.perHour} requests an hour, whatever became of them`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { t, customer, book } = await setup();
    for (let i = 0; i < BOOKING_LIMITS.perHour; i++) {
      const id = await book({ scheduledFor: Date.now() + HOUR });
      await customer.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Changed my mind" });
      vi.setSystemTime(Date.now() + 60_000);
    }
    expect(await errorMessage(book({ scheduledFor: Date.now() + HOUR }))).toMatch(
      `You have sent ${BOOKING_LIMITS.perHour} booking requests in the last hour, please try again in 4`,
    );
    vi.setSystemTime(Date.now() + 41 * 60_000);
    await book({ scheduledFor: Date.now() + HOUR });
    expect(await t.run(async (ctx) => (await ctx.db.query("bookings").collect()).length)).toBe(
      BOOKING_LIMITS.perHour + 1,
    );
  });
});

describe("booking lifecycle", () => {
  test("requested → accepted → en_route → arrived → in_progress → completed, with events, notifications and totals", async () => {
    const { t, customer, pro, wiring, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    await pro.as.mutation(api.bookings.startTrip, { bookingId: id });
    await pro.as.mutation(api.bookings.arrive, { bookingId: id });
    await startWithCustomersCode(customer.as, pro.as, id);
    await pro.as.mutation(api.bookings.complete, { bookingId: id });
    expect(await status(t, id)).toBe("completed");
    expect((await events(t, id)).map((e) => [e.from, e.to])).toEqual([
      [undefined, "requested"],
      ["requested", "accepted"],
      ["accepted", "en_route"],
      ["en_route", "arrived"],
      ["arrived", "in_progress"],
      ["in_progress", "completed"],
    ]);
    expect((await notificationsOf(t, customer.userId)).map((n) => n.kind)).toEqual([
      "booking.accepted",
      "booking.en_route",
      "booking.arrived",
      "booking.in_progress",
      "booking.completed",
    ]);
    expect((await t.run((ctx) => ctx.db.get("services", wiring)))!.totalBookings).toBe(1);
  });

  test("a retried transition to the current state is a no-op", async () => {
    const { t, customer, pro, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    expect(await events(t, id)).toHaveLength(2);
    expect(await notificationsOf(t, customer.userId)).toHaveLength(1);
    await customer.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Plans changed" });
    await customer.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Plans changed" });
    expect(await events(t, id)).toHaveLength(3);
  });

  test("illegal transitions are refused naming both states", async () => {
    const { t, pro, book } = await setup();
    const id = await book();
    expect(await errorCode(pro.as.mutation(api.bookings.complete, { bookingId: id }))).toBe(
      "ILLEGAL_TRANSITION",
    );
    expect(await errorMessage(pro.as.mutation(api.bookings.complete, { bookingId: id }))).toBe(
      "A requested booking cannot become completed.",
    );
    expect(await errorCode(pro.as.mutation(api.bookings.startTrip, { bookingId: id }))).toBe(
      "ILLEGAL_TRANSITION",
    );
    await pro.as.mutation(api.bookings.reject, { bookingId: id, reason: "Fully booked" });
    const message = await errorMessage(pro.as.mutation(api.bookings.accept, { bookingId: id }));
    expect(message).toMatch(/rejected/);
    expect(message).toMatch(/accepted/);
    expect(await status(t, id)).toBe("rejected");
  });

  test("only the booking's professional moves it; others are refused", async () => {
    const { t, customer, otherPro, admin, book } = await setup();
    const id = await book();
    for (const fn of [
      api.bookings.accept,
      api.bookings.startTrip,
      api.bookings.arrive,
      api.bookings.complete,
    ]) {
      expect(await errorCode(t.mutation(fn, { bookingId: id }))).toBe("UNAUTHENTICATED");
      // another professional's booking answers as a missing one; other roles are refused by role
      expect(await errorCode(otherPro.as.mutation(fn, { bookingId: id }))).toBe("NOT_FOUND");
      expect(await errorCode(customer.as.mutation(fn, { bookingId: id }))).toBe("FORBIDDEN");
      expect(await errorCode(admin.as.mutation(fn, { bookingId: id }))).toBe("FORBIDDEN");
    }
    expect(await errorCode(otherPro.as.mutation(api.bookings.reject, { bookingId: id }))).toBe(
      "NOT_FOUND",
    );
    expect(await errorCode(customer.as.mutation(api.bookings.reject, { bookingId: id }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(admin.as.mutation(api.bookings.reject, { bookingId: id }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(t.mutation(api.bookings.reject, { bookingId: id }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await status(t, id)).toBe("requested");
  });

  test("reject notifies the customer, whose booking shows the reason", async () => {
    const { t, customer, pro, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.reject, { bookingId: id, reason: "Out of town" });
    expect(await status(t, id)).toBe("rejected");
    expect(await notificationsOf(t, customer.userId)).toMatchObject([
      {
        kind: "booking.rejected",
        title: "Booking declined",
        body: "Ram Thapa could not take your booking for House Wiring, Fan Installation (Out of town). Try another professional.",
      },
    ]);
    expect((await events(t, id))[1]).toMatchObject({
      from: "requested",
      to: "rejected",
      reason: "Out of town",
    });
    const mine = await customer.as.query(api.bookings.forCustomer, {
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(mine.page.find((b) => b._id === id)?.cancelReason).toBe("Out of town");
  });
});

describe("bookings:cancel", () => {
  test("the customer cancels while requested or accepted, with a reason", async () => {
    const { t, customer, pro, book } = await setup();
    const first = await book();
    expect(
      await errorCode(customer.as.mutation(api.bookings.cancel, { bookingId: first, reason: " " })),
    ).toBe("REASON_REQUIRED");
    await customer.as.mutation(api.bookings.cancel, {
      bookingId: first,
      reason: "Fixed it myself",
    });
    expect(await t.run((ctx) => ctx.db.get("bookings", first))).toMatchObject({
      status: "cancelled",
      cancelReason: "Fixed it myself",
    });
    expect((await notificationsOf(t, pro.userId)).map((n) => n.kind)).toContain(
      "booking.cancelled",
    );

    const second = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: second });
    await customer.as.mutation(api.bookings.cancel, { bookingId: second, reason: "Travelling" });
    expect(await status(t, second)).toBe("cancelled");
  });

  test("the customer cannot cancel once the professional is on the way without the fee", async () => {
    const { t, customer, pro, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    await pro.as.mutation(api.bookings.startTrip, { bookingId: id });
    expect(
      await errorCode(customer.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Late" })),
    ).toBe("CANCEL_FEE");
    expect(await status(t, id)).toBe("en_route");
  });

  test("the professional cancels only after accepting, until arrival", async () => {
    const { t, customer, pro, book } = await setup();
    const id = await book();
    expect(
      await errorCode(pro.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Busy" })),
    ).toBe("ILLEGAL_TRANSITION");
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    await pro.as.mutation(api.bookings.startTrip, { bookingId: id });
    await pro.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Motorbike broke down" });
    expect(await status(t, id)).toBe("cancelled");
    expect((await notificationsOf(t, customer.userId)).at(-1)).toMatchObject({
      kind: "booking.cancelled",
    });

    const other = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: other });
    await pro.as.mutation(api.bookings.startTrip, { bookingId: other });
    await pro.as.mutation(api.bookings.arrive, { bookingId: other });
    await startWithCustomersCode(customer.as, pro.as, other);
    expect(
      await errorCode(pro.as.mutation(api.bookings.cancel, { bookingId: other, reason: "x" })),
    ).toBe("ILLEGAL_TRANSITION");
  });

  test("strangers, admins and visitors cannot cancel", async () => {
    const { t, otherCustomer, otherPro, admin, book } = await setup();
    const id = await book();
    const args = { bookingId: id, reason: "No" };
    expect(await errorCode(t.mutation(api.bookings.cancel, args))).toBe("UNAUTHENTICATED");
    expect(await errorCode(otherCustomer.as.mutation(api.bookings.cancel, args))).toBe("NOT_FOUND");
    expect(await errorCode(otherPro.as.mutation(api.bookings.cancel, args))).toBe("NOT_FOUND");
    expect(await errorCode(admin.as.mutation(api.bookings.cancel, args))).toBe("FORBIDDEN");
    expect(await status(t, id)).toBe("requested");
  });
});

describe("expiry", () => {
  test("an unanswered request expires after the configured minutes and both parties hear of it", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, book } = await setup();
    await t.run((ctx) => ctx.db.insert("settings", { key: "bookingExpiryMinutes", value: 5 }));
    const id = await book();
    vi.advanceTimersByTime(4 * 60 * 1000);
    await t.finishInProgressScheduledFunctions();
    expect(await status(t, id)).toBe("requested");
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await status(t, id)).toBe("expired");
    const expired = (await events(t, id)).at(-1)!;
    expect(expired).toMatchObject({ from: "requested", to: "expired" });
    expect(expired.actorId).toBeUndefined();
    expect((await notificationsOf(t, customer.userId)).map((n) => n.kind)).toEqual([
      "booking.expired",
    ]);
    expect((await notificationsOf(t, pro.userId)).map((n) => n.kind)).toEqual([
      "booking.requested",
      "booking.expired",
    ]);
    expect(await errorCode(pro.as.mutation(api.bookings.accept, { bookingId: id }))).toBe(
      "ILLEGAL_TRANSITION",
    );
  });

  test("an answered request does not expire (default 30 minutes)", async () => {
    vi.useFakeTimers();
    const { t, pro, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await status(t, id)).toBe("accepted");
    expect(await events(t, id)).toHaveLength(2);
  });
});

describe("booking lists", () => {
  test("forProfessional and forCustomer: own bookings, newest first, paginated", async () => {
    const { customer, otherCustomer, pro, otherPro, book, args } = await setup();
    const first = await book();
    const second = await book();
    await otherCustomer.as.mutation(api.bookings.create, {
      ...args,
      professionalId: otherPro.professionalId,
    });
    const proPage = await pro.as.query(api.bookings.forProfessional, {
      paginationOpts: { numItems: 1, cursor: null },
    });
    expect(proPage.page.map((b) => b._id)).toEqual([second]);
    const next = await pro.as.query(api.bookings.forProfessional, {
      paginationOpts: { numItems: 10, cursor: proPage.continueCursor },
    });
    expect(next.page.map((b) => b._id)).toEqual([first]);
    const mine = await customer.as.query(api.bookings.forCustomer, {
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(mine.page.map((b) => b._id)).toEqual([second, first]);
    const others = await otherPro.as.query(api.bookings.forProfessional, {
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(others.page).toHaveLength(1);
    expect(others.page[0].customer.name).toBe("Gita Karki");
    const theirs = await otherCustomer.as.query(api.bookings.forCustomer, {
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(theirs.page.map((b) => b.professional._id)).toEqual([otherPro.professionalId]);
    expect(mine.page[0]).toMatchObject({
      status: "requested",
      price: 5200,
      city: "kathmandu",
      note: "Please bring a ladder",
      professional: { _id: pro.professionalId, name: "Ram Thapa", specialtyName: "Electrician" },
      customer: { name: "Sita Sharma" },
      canReview: false,
    });
    expect(mine.page[0].services[0]).toMatchObject({
      name: "House Wiring",
      category: "electrical",
      price: 4550,
    });
  });

  test("phone numbers are shared only while the job is active", async () => {
    const { customer, pro, book } = await setup();
    const id = await book();
    const opts = { paginationOpts: { numItems: 10, cursor: null } };
    expect(
      (await customer.as.query(api.bookings.forCustomer, opts)).page[0].professional.phone,
    ).toBeNull();
    expect(
      (await pro.as.query(api.bookings.forProfessional, opts)).page[0].customer.phone,
    ).toBeNull();
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    expect(
      (await customer.as.query(api.bookings.forCustomer, opts)).page[0].professional.phone,
    ).toBe("9800000002");
    expect((await pro.as.query(api.bookings.forProfessional, opts)).page[0].customer.phone).toBe(
      "9800000001",
    );
  });

  test("wrong roles and visitors are refused", async () => {
    const { t, customer, pro, admin } = await setup();
    const opts = { paginationOpts: { numItems: 10, cursor: null } };
    expect(await errorCode(t.query(api.bookings.forProfessional, opts))).toBe("UNAUTHENTICATED");
    expect(await errorCode(customer.as.query(api.bookings.forProfessional, opts))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(admin.as.query(api.bookings.forProfessional, opts))).toBe("FORBIDDEN");
    expect(await errorCode(t.query(api.bookings.forCustomer, opts))).toBe("UNAUTHENTICATED");
    expect(await errorCode(pro.as.query(api.bookings.forCustomer, opts))).toBe("FORBIDDEN");
    expect(await errorCode(admin.as.query(api.bookings.forCustomer, opts))).toBe("FORBIDDEN");
  });
});

describe("bookings:get", () => {
  test("its customer, its professional and admins see it with its events", async () => {
    const { customer, pro, admin, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.reject, { bookingId: id, reason: "Fully booked" });
    for (const as of [customer.as, pro.as, admin.as]) {
      const booking = await as.query(api.bookings.get, { bookingId: id });
      expect(booking!.events).toMatchObject([
        { from: null, to: "requested", actorRole: "customer", reason: null },
        { from: "requested", to: "rejected", actorRole: "professional", reason: "Fully booked" },
      ]);
    }
  });

  test("other customers and professionals get null, as for a booking that does not exist; visitors are refused", async () => {
    const { t, otherCustomer, otherPro, book } = await setup();
    const id = await book();
    const gone = await book();
    await t.run((ctx) => ctx.db.delete("bookings", gone));
    expect(await errorCode(t.query(api.bookings.get, { bookingId: id }))).toBe("UNAUTHENTICATED");
    for (const as of [otherCustomer.as, otherPro.as]) {
      expect(await as.query(api.bookings.get, { bookingId: id })).toBeNull();
      expect(await as.query(api.bookings.get, { bookingId: gone })).toBeNull();
    }
  });
});

describe("bookings:recentActivity", () => {
  test("the professional's booking events and ratings, newest first", async () => {
    const { t, customer, pro, otherPro, admin, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    await pro.as.mutation(api.bookings.startTrip, { bookingId: id });
    await pro.as.mutation(api.bookings.arrive, { bookingId: id });
    await startWithCustomersCode(customer.as, pro.as, id);
    await pro.as.mutation(api.bookings.complete, { bookingId: id });
    // a job that took an hour, confirmed by its customer
    await t.run((ctx) => ctx.db.patch("bookings", id, { acceptedAt: Date.now() - 60 * 60_000 }));
    await customer.as.mutation(api.bookings.confirmDone, { bookingId: id });
    await customer.as.mutation(api.reviews.create, { bookingId: id, rating: 5 });
    const activity = await pro.as.query(api.bookings.recentActivity, {});
    expect(activity[0]).toMatchObject({
      text: "Received a 5-star rating",
      kind: "reviewed",
      rating: 5,
    });
    expect(activity.map((a) => a.text)).toContain("Accepted a booking for Electrician");
    expect(activity.find((a) => a.kind === "accepted")?.categories).toEqual([
      { slug: "electrical", name: "Electrician" },
    ]);
    expect(activity.length).toBeLessThanOrEqual(10);
    expect(await errorCode(customer.as.query(api.bookings.recentActivity, {}))).toBe("FORBIDDEN");
    expect(await errorCode(admin.as.query(api.bookings.recentActivity, {}))).toBe("FORBIDDEN");
    expect(await otherPro.as.query(api.bookings.recentActivity, {})).toEqual([]);
    expect(await errorCode(t.query(api.bookings.recentActivity, {}))).toBe("UNAUTHENTICATED");
  });
});

describe("booking times (rules/schedule.ts) and places (rules/address.ts)", () => {
  /** 10:00 in Kathmandu (04:15 UTC) on a day two days from now. */
  const tenInKathmandu = () => {
    const day = new Date(Date.now() + 2 * 24 * HOUR);
    return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4, 15);
  };

  test("a time outside the professional's working days or hours is refused with them; inside is booked", async () => {
    const { pro, book } = await setup();
    const ten = tenInKathmandu();
    const day = new Date(ten + (5 * 60 + 45) * 60_000).getUTCDay();
    const otherDays = [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== day);
    await pro.as.mutation(api.professionals.setWorkingHours, {
      hours: { days: [day, ...otherDays], start: 9 * 60, end: 17 * 60 },
    });
    const err = book({ scheduledFor: ten + 8 * HOUR });
    expect(await errorCode(err)).toBe("OUTSIDE_WORKING_HOURS");
    expect(await errorMessage(book({ scheduledFor: ten - 2 * HOUR }))).toBe(
      "Ram Thapa works Sun, Mon, Tue, Wed, Thu, Fri, Sat from 09:00 to 17:00 (Nepal time). Please choose a time in those hours.",
    );
    await pro.as.mutation(api.professionals.setWorkingHours, {
      hours: { days: otherDays, start: 9 * 60, end: 17 * 60 },
    });
    expect(await errorCode(book({ scheduledFor: ten }))).toBe("OUTSIDE_WORKING_HOURS");
    await pro.as.mutation(api.professionals.setWorkingHours, {
      hours: { days: [day], start: 9 * 60, end: 17 * 60 },
    });
    await book({ scheduledFor: ten });
  });

  test("working hours: only the professional sets them, by the shared rule, and can clear them", async () => {
    const { t, customer, admin, pro } = await setup();
    const hours = { days: [3, 1, 2], start: 9 * 60, end: 17 * 60 };
    expect(
      await errorCode(customer.as.mutation(api.professionals.setWorkingHours, { hours })),
    ).toBe("FORBIDDEN");
    expect(await errorCode(admin.as.mutation(api.professionals.setWorkingHours, { hours }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(t.mutation(api.professionals.setWorkingHours, { hours }))).toBe(
      "UNAUTHENTICATED",
    );
    const refused = pro.as.mutation(api.professionals.setWorkingHours, {
      hours: { days: [1], start: 600, end: 500 },
    });
    expect(await errorCode(refused)).toBe("INVALID_INPUT");
    expect(
      await errorMessage(
        pro.as.mutation(api.professionals.setWorkingHours, { hours: { ...hours, days: [] } }),
      ),
    ).toBe("Choose at least one working day.");
    await pro.as.mutation(api.professionals.setWorkingHours, { hours });
    expect((await pro.as.query(api.professionals.me, {}))?.workingHours).toEqual({
      days: [1, 2, 3],
      start: 540,
      end: 1020,
    });
    await pro.as.mutation(api.professionals.setWorkingHours, { hours: null });
    expect((await pro.as.query(api.professionals.me, {}))?.workingHours).toBeNull();
  });

  test("a time overlapping another customer's request or an accepted job is refused with the next free times", async () => {
    const { t, pro, otherCustomer, args, book } = await setup();
    const ten = tenInKathmandu();
    // wiring (2 h) and a fan (2 h): the job holds 10:00-14:00
    const first = await book({ scheduledFor: ten });
    expect((await t.run((ctx) => ctx.db.get("bookings", first)))?.jobMinutes).toBe(240);
    const other = (at: number) =>
      otherCustomer.as.mutation(api.bookings.create, { ...args, scheduledFor: at });
    const refused = other(ten + 3.5 * HOUR);
    expect(await errorCode(refused)).toBe("SLOT_TAKEN");
    const data = await refused.then(
      () => expect.unreachable(),
      (e: { data: { at: number; next: number[] } }) => e.data,
    );
    expect(data.at).toBe(ten);
    expect(data.next).toHaveLength(3);
    expect(
      data.next.every((at) => at > Date.now() && (at >= ten + 4 * HOUR || at + 4 * HOUR <= ten)),
    ).toBe(true);
    await other(ten + 5 * HOUR);
    // the customer's own request does not stand in their way; an accepted job does
    await book({ scheduledFor: ten + HOUR });
    await pro.as.mutation(api.bookings.accept, { bookingId: first });
    expect(await errorCode(book({ scheduledFor: ten + 2 * HOUR }))).toBe("SLOT_TAKEN");
  });

  test("a request that is declined, cancelled or expired frees its time", async () => {
    const { pro, customer, otherCustomer, args, book } = await setup();
    const ten = tenInKathmandu();
    const first = await book({ scheduledFor: ten });
    await pro.as.mutation(api.bookings.reject, { bookingId: first });
    const second = await book({ scheduledFor: ten + 8 * HOUR });
    await customer.as.mutation(api.bookings.cancel, { bookingId: second, reason: "Plans changed" });
    await otherCustomer.as.mutation(api.bookings.create, { ...args, scheduledFor: ten });
    await otherCustomer.as.mutation(api.bookings.create, { ...args, scheduledFor: ten + 8 * HOUR });
  });

  test("accepting a clash is refused until the professional confirms it", async () => {
    const { t, pro, args, book } = await setup();
    const ten = tenInKathmandu();
    const first = await book({ scheduledFor: ten });
    const second = await book({ ...args, scheduledFor: ten + 30 * 60_000 });
    await pro.as.mutation(api.bookings.accept, { bookingId: first });
    expect(await errorCode(pro.as.mutation(api.bookings.accept, { bookingId: second }))).toBe(
      "BOOKING_CLASH",
    );
    expect(await status(t, second)).toBe("requested");
    await pro.as.mutation(api.bookings.accept, { bookingId: second, confirmClash: true });
    expect(await status(t, second)).toBe("accepted");
  });

  test("lifecycle steps are refused more than an hour before the booked time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { t, pro, book } = await setup();
    const ten = tenInKathmandu();
    const id = await book({ scheduledFor: ten });
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    expect(await errorCode(pro.as.mutation(api.bookings.startTrip, { bookingId: id }))).toBe(
      "TOO_EARLY",
    );
    vi.setSystemTime(ten - HOUR);
    await pro.as.mutation(api.bookings.startTrip, { bookingId: id });
    expect(await status(t, id)).toBe("en_route");
  });

  test("an address naming another city is refused; the city is not stored twice", async () => {
    const { t, book } = await setup();
    const refused = book({ address: "Lakeside-6, Pokhara" });
    expect(await errorCode(refused)).toBe("OUT_OF_AREA");
    expect(await errorMessage(book({ address: "Lakeside-6, Pokhara" }))).toMatch(
      "The address names Pokhara, but this booking is in Kathmandu",
    );
    const id = await book({ address: "Baneshwor-10, Kathmandu" });
    expect(await t.run(async (ctx) => (await ctx.db.get("bookings", id))!.address)).toBe(
      "Baneshwor-10, Kathmandu",
    );
  });

  test("a city's name inside a street's name does not refuse the address", async () => {
    const { t, book } = await setup();
    const id = await book({ address: "Ward 1, Surkhet Road, near Bageshwari temple" });
    expect(await status(t, id)).toBe("requested");
    expect(await errorCode(book({ address: "Pokhara Road, Pokhara-6" }))).toBe("OUT_OF_AREA");
  });

  test("the cancelling party is recorded and shown", async () => {
    const { t, customer, pro, book } = await setup();
    const id = await book();
    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    await pro.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Van broke down" });
    const seen = await customer.as.query(api.bookings.get, { bookingId: id });
    expect(seen).toMatchObject({ cancelledBy: "professional", cancelReason: "Van broke down" });
    expect(await status(t, id)).toBe("cancelled");
  });

  test("the completion notice formats the total in Nrs.", async () => {
    const { t, customer, pro, book } = await setup();
    const id = await book();
    for (const step of ["accept", "startTrip", "arrive"] as const)
      await pro.as.mutation(api.bookings[step], { bookingId: id });
    await startWithCustomersCode(customer.as, pro.as, id);
    await pro.as.mutation(api.bookings.complete, { bookingId: id });
    const notes = await notificationsOf(t, customer.userId);
    expect(notes.find((n) => n.kind === "booking.completed")!.body).toMatch(
      /Total Nrs\. \d{1,3}(,\d{2})*,\d{3}\./,
    );
  });
});
