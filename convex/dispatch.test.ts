import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { syncSpot } from "./model/dispatchSpots";
import { cellOf } from "./model/geo";
import { DISPATCH } from "./rules/dispatch";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  requestElectricianBooking,
  type TestConvex,
} from "./test.setup";

/** The customer's pin in Baneshwor, Kathmandu; professionals east of it at 0.01° (~1 km) steps. */
const PIN = { lat: 27.69, lng: 85.33 };
const east = (km: number) => ({ lat: PIN.lat, lng: PIN.lng + km * 0.0101 });

/** A professional `km` east of the pin, signed in (online) unless `online` is false. */
async function placedPro(t: TestConvex, name: string, km: number, opts = {}, online = true) {
  const pro = await insertProfessional(t, {
    name,
    specialty: "electrician",
    city: "kathmandu",
    ...opts,
  });
  if (online) await pro.as.mutation(api.presence.heartbeat, {});
  await t.run((ctx) => syncSpot(ctx, pro.professionalId, east(km)));
  return pro;
}

async function setup(pros = 5) {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const other = await insertCustomer(t, "Gita Karki");
  // nearest first: p[0] 1 km, p[1] 2 km, ...
  const p = [];
  for (let i = 0; i < pros; i++) p.push(await placedPro(t, `Pro ${i + 1}`, i + 1));
  const service = await t.run((ctx) =>
    ctx.db
      .query("services")
      .withIndex("by_category_and_name", (q) => q.eq("category", "electrical"))
      .first(),
  );
  const ask = (as = customer.as, over = {}) =>
    as.mutation(api.dispatch.request, {
      serviceIds: [service!._id],
      city: "kathmandu",
      address: "House 12, Baneshwor",
      pin: PIN,
      ...over,
    });
  return { t, customer, other, p, ask };
}

const offersOf = (t: TestConvex, requestId: Id<"dispatchRequests">) =>
  t.run((ctx) =>
    ctx.db
      .query("dispatchOffers")
      .withIndex("by_requestId", (q) => q.eq("requestId", requestId))
      .collect(),
  );
const offerOf = async (
  t: TestConvex,
  requestId: Id<"dispatchRequests">,
  pro: { professionalId: Id<"professionals"> },
) => (await offersOf(t, requestId)).find((o) => o.professionalId === pro.professionalId)!;
const bookings = (t: TestConvex) => t.run((ctx) => ctx.db.query("bookings").collect());

describe("nearest available now", () => {
  test("offers the request to the nearest few, each told on their dashboard", async () => {
    const { t, p, ask } = await setup();
    const requestId = await ask();
    const offers = await offersOf(t, requestId);
    expect(offers.map((o) => o.professionalId)).toEqual(
      p.slice(0, DISPATCH.batch).map((x) => x.professionalId),
    );
    expect(offers.every((o) => o.status === "offered")).toBe(true);
    expect(offers[0].distanceMetres).toBeGreaterThan(900);
    expect(offers[0].distanceMetres).toBeLessThan(1100);
    const mine = await p[0].as.query(api.dispatch.myOffers, {});
    expect(mine).toMatchObject([{ status: "offered", city: "kathmandu" }]);
    expect(mine[0]).not.toHaveProperty("address");
    const note = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", p[0].userId))
        .collect(),
    );
    expect(note.map((n) => n.kind)).toEqual(["dispatch.offered"]);
    // the fourth nearest is not offered yet
    expect(await p[3].as.query(api.dispatch.myOffers, {})).toEqual([]);
  });

  test("leaves out unverified, unavailable, suspended and other services' or cities' professionals", async () => {
    const { t, ask } = await setup(0);
    await placedPro(t, "Unverified", 0.5, { verified: false });
    await placedPro(t, "Away", 0.5, { available: false });
    const suspended = await placedPro(t, "Suspended", 0.5);
    await t.run(async (ctx) => {
      await ctx.db.patch("users", suspended.userId, {
        suspended: { at: 1, by: suspended.userId, reason: "test" },
      });
      await syncSpot(ctx, suspended.professionalId);
    });
    await placedPro(t, "Plumber", 0.5, { specialty: "plumber" });
    await placedPro(t, "Pokhara", 0.5, { city: "pokhara" });
    const ok = await placedPro(t, "Ok", 3);
    const requestId = await ask();
    expect((await offersOf(t, requestId)).map((o) => o.professionalId)).toEqual([
      ok.professionalId,
    ]);
  });

  test("offers only to professionals online now; one coming online is offered the next request", async () => {
    const { t, customer, ask } = await setup(0);
    const offline = await placedPro(t, "Offline", 0.5, {}, false);
    const online = await placedPro(t, "Online", 3);
    const first = await ask();
    expect((await offersOf(t, first)).map((o) => o.professionalId)).toEqual([
      online.professionalId,
    ]);
    await customer.as.mutation(api.dispatch.cancel, { requestId: first });
    await offline.as.mutation(api.presence.heartbeat, {});
    const second = await ask();
    expect((await offersOf(t, second)).map((o) => o.professionalId).sort()).toEqual(
      [offline.professionalId, online.professionalId].sort(),
    );
    // signing out takes them out again
    await customer.as.mutation(api.dispatch.cancel, { requestId: second });
    await offline.as.mutation(api.presence.leave, {});
    const third = await ask();
    expect((await offersOf(t, third)).map((o) => o.professionalId)).toEqual([
      online.professionalId,
    ]);
  });

  test("passes over a professional with an accepted job now and offers the next nearest", async () => {
    const { t, other, p, ask } = await setup(4);
    const job = await requestElectricianBooking(t, other.as, p[0].professionalId);
    await p[0].as.mutation(api.bookings.accept, { bookingId: job });
    await t.run((ctx) => ctx.db.patch("bookings", job, { scheduledFor: Date.now() - 30 * 60_000 }));
    const requestId = await ask();
    expect((await offersOf(t, requestId)).map((o) => o.professionalId)).toEqual(
      p.slice(1, 1 + DISPATCH.batch).map((x) => x.professionalId),
    );
  });

  test("a decline or a silent timeout offers it to the next nearest, never again to them", async () => {
    const { t, customer, p, ask } = await setup();
    const requestId = await ask();
    const first = await offerOf(t, requestId, p[0]);
    await p[0].as.mutation(api.dispatch.decline, { offerId: first._id });
    expect((await offerOf(t, requestId, p[0])).status).toBe("declined");
    expect((await offerOf(t, requestId, p[3])).status).toBe("offered");

    await t.mutation(internal.dispatch.timeOut, {
      offerId: (await offerOf(t, requestId, p[1]))._id,
    });
    expect((await offerOf(t, requestId, p[1])).status).toBe("timed_out");
    expect((await offerOf(t, requestId, p[4])).status).toBe("offered");
    // a timeout firing after an answer changes nothing
    await t.mutation(internal.dispatch.timeOut, { offerId: first._id });
    expect((await offerOf(t, requestId, p[0])).status).toBe("declined");

    const view = await customer.as.query(api.dispatch.get, { requestId });
    expect(view).toMatchObject({
      status: "searching",
      progress: { offered: 5, declined: 1, timedOut: 1, waiting: 3 },
    });
    // the decliner is offered it no more, however many re-offers follow
    for (const pro of [p[2], p[3], p[4]]) {
      await pro.as.mutation(api.dispatch.decline, {
        offerId: (await offerOf(t, requestId, pro))._id,
      });
    }
    const offers = await offersOf(t, requestId);
    expect(offers.filter((o) => o.professionalId === p[0].professionalId)).toHaveLength(1);
  });

  test("the first to accept gets the booking, pinned and accepted; the others see it taken", async () => {
    const { t, customer, p, ask } = await setup();
    const requestId = await ask();
    const bookingId = await p[1].as.mutation(api.dispatch.accept, {
      offerId: (await offerOf(t, requestId, p[1]))._id,
    });
    const [booking] = await bookings(t);
    expect(booking).toMatchObject({
      _id: bookingId,
      status: "accepted",
      professionalId: p[1].professionalId,
      customerId: customer.userId,
      pin: PIN,
      address: "House 12, Baneshwor",
    });
    expect((await offerOf(t, requestId, p[0])).status).toBe("taken");
    expect(await p[0].as.query(api.dispatch.myOffers, {})).toMatchObject([{ status: "taken" }]);
    expect(
      await errorCode(
        p[0].as.mutation(api.dispatch.accept, {
          offerId: (await offerOf(t, requestId, p[0]))._id,
        }),
      ),
    ).toBe("OFFER_TAKEN");
    expect(await bookings(t)).toHaveLength(1);
    expect(await customer.as.query(api.dispatch.get, { requestId })).toMatchObject({
      status: "matched",
      bookingId,
    });
    // accepting again is answered with the same booking
    expect(
      await p[1].as.mutation(api.dispatch.accept, {
        offerId: (await offerOf(t, requestId, p[1]))._id,
      }),
    ).toBe(bookingId);
    // the winner sees the exact address and pin on the booking
    expect(await p[1].as.query(api.bookings.get, { bookingId })).toMatchObject({ pin: PIN });
  });

  test("the accepted request is billed like any booking: its services, the visit charge, a job length", async () => {
    const { t, customer, p, ask } = await setup(1);
    const admin = await insertAdmin(t);
    await admin.as.mutation(api.admin.updateSettings, { visitChargeNrs: 200 });
    const requestId = await ask();
    const view = await customer.as.query(api.dispatch.get, { requestId });
    const servicesNrs = view!.services.reduce((sum, s) => sum + s.price, 0);
    expect(view!.price).toBe(servicesNrs + 200);
    // a later change of the visit charge does not change what the customer was shown
    await admin.as.mutation(api.admin.updateSettings, { visitChargeNrs: 0 });
    const bookingId = await p[0].as.mutation(api.dispatch.accept, {
      offerId: (await offerOf(t, requestId, p[0]))._id,
    });
    const [booking] = await bookings(t);
    expect(booking.price).toBe(servicesNrs + 200);
    expect(booking.jobMinutes).toBeGreaterThan(0);
    expect(booking.acceptedAt).toBeTypeOf("number");
    const bill = await customer.as.query(api.bills.get, { bookingId });
    expect(bill?.lines.map((l) => [l.kind, l.amountPaisa])).toEqual([
      ...view!.services.filter((s) => s.price > 0).map((s) => ["service", s.price * 100]),
      ["visit", 20_000],
    ]);
    expect(bill?.totalPaisa).toBe((servicesNrs + 200) * 100);
  });

  test("going unavailable takes their open offer off their screen at once and offers the next nearest", async () => {
    const { t, customer, p, ask } = await setup(4);
    const requestId = await ask();
    const offerId = (await offerOf(t, requestId, p[0]))._id;
    await p[0].as.mutation(api.professionals.setAvailability, { available: false });
    expect((await offerOf(t, requestId, p[0])).status).toBe("left");
    expect((await offerOf(t, requestId, p[3])).status).toBe("offered");
    expect(await p[0].as.query(api.dispatch.myOffers, {})).toEqual([]);
    // the customer's line counts it as let pass, without waiting for the offer's time to run out
    expect(await customer.as.query(api.dispatch.get, { requestId })).toMatchObject({
      progress: { offered: 4, declined: 0, timedOut: 1, waiting: 3 },
    });
    expect(await errorCode(p[0].as.mutation(api.dispatch.accept, { offerId }))).toBe(
      "OFFER_CLOSED",
    );
    expect(await bookings(t)).toHaveLength(0);
    // its scheduled timeout changes nothing later
    await t.mutation(internal.dispatch.timeOut, { offerId });
    expect((await offerOf(t, requestId, p[0])).status).toBe("left");
  });

  test("an admin making a professional unavailable takes their open offer off too", async () => {
    const { t, p, ask } = await setup(4);
    const admin = await insertAdmin(t);
    const requestId = await ask();
    await admin.as.mutation(api.admin.setAvailability, {
      professionalId: p[1].professionalId,
      available: false,
    });
    expect((await offerOf(t, requestId, p[1])).status).toBe("left");
    expect((await offerOf(t, requestId, p[3])).status).toBe("offered");
  });

  test("signing out takes their open offers off at once; each request goes to the next nearest", async () => {
    const { t, customer, other, p, ask } = await setup(5);
    const first = await ask();
    const second = await ask(other.as);
    await p[0].as.mutation(api.presence.leave, {});
    for (const requestId of [first, second]) {
      expect((await offerOf(t, requestId, p[0])).status).toBe("left");
      expect((await offerOf(t, requestId, p[3])).status).toBe("offered");
      expect((await offersOf(t, requestId)).filter((o) => o.status === "offered")).toHaveLength(3);
    }
    expect(await customer.as.query(api.dispatch.get, { requestId: first })).toMatchObject({
      status: "searching",
      progress: { offered: 4, timedOut: 1, waiting: 3 },
    });
    // the others' offers stay as they were
    expect((await offerOf(t, first, p[1])).status).toBe("offered");
  });

  test("a heartbeat that stops takes their offer off when presence times out, not before", async () => {
    const { t, p, ask } = await setup(4);
    const requestId = await ask();
    const lastSeen = await t.run(async (ctx) => {
      const row = await ctx.db
        .query("presence")
        .withIndex("by_userId", (q) => q.eq("userId", p[2].userId))
        .unique();
      return row!.lastSeen;
    });
    // a check for an older heartbeat leaves them online and their offer open
    await t.mutation(internal.presence.markOffline, {
      userId: p[2].userId,
      lastSeen: lastSeen - 1,
    });
    expect((await offerOf(t, requestId, p[2])).status).toBe("offered");
    await t.mutation(internal.presence.markOffline, { userId: p[2].userId, lastSeen });
    expect((await offerOf(t, requestId, p[2])).status).toBe("left");
    expect((await offerOf(t, requestId, p[3])).status).toBe("offered");
  });

  test("the only professional going offline ends the search unmatched at once", async () => {
    const { t, customer, p, ask } = await setup(1);
    const requestId = await ask();
    await p[0].as.mutation(api.presence.leave, {});
    expect(await customer.as.query(api.dispatch.get, { requestId })).toMatchObject({
      status: "unmatched",
    });
    expect((await offerOf(t, requestId, p[0])).status).toBe("left");
  });

  test("suspending a professional withdraws their open offer and offers the next nearest", async () => {
    const { t, p, ask } = await setup(4);
    const admin = await insertAdmin(t);
    const requestId = await ask();
    await admin.as.mutation(api.adminAccounts.suspend, {
      userId: p[0].userId,
      reason: "Fake documents shown to customers",
    });
    expect((await offerOf(t, requestId, p[0])).status).toBe("left");
    expect((await offerOf(t, requestId, p[3])).status).toBe("offered");
    // never offered again while suspended, in this search or the next
    const ids = async (id: Id<"dispatchRequests">) =>
      (await offersOf(t, id)).map((o) => o.professionalId);
    expect(await ids(requestId)).toHaveLength(4);
    const other = await insertCustomer(t, "Gita Thapa");
    const second = await ask(other.as);
    expect(await ids(second)).not.toContain(p[0].professionalId);
    // restored and signed in again, they are offered jobs again
    await admin.as.mutation(api.adminAccounts.restore, {
      userId: p[0].userId,
      reason: "Documents checked again",
    });
    await t.run(async (ctx) => {
      const row = await ctx.db
        .query("presence")
        .withIndex("by_userId", (q) => q.eq("userId", p[0].userId))
        .unique();
      await ctx.db.patch("presence", row!._id, { online: true, lastSeen: Date.now() });
      await syncSpot(ctx, p[0].professionalId, east(1));
    });
    const third = await ask((await insertCustomer(t, "Rita Rai")).as);
    expect(await ids(third)).toContain(p[0].professionalId);
  });

  test("suspending a customer ends their search: the offers are withdrawn", async () => {
    const { t, customer, ask } = await setup(2);
    const admin = await insertAdmin(t);
    const requestId = await ask();
    await admin.as.mutation(api.adminAccounts.suspend, {
      userId: customer.userId,
      reason: "Abusive messages to professionals",
    });
    const req = await t.run((ctx) => ctx.db.get("dispatchRequests", requestId));
    expect(req?.status).toBe("cancelled");
    expect((await offersOf(t, requestId)).every((o) => o.status === "withdrawn")).toBe(true);
  });

  test("the customer may cancel while searching: open offers are withdrawn", async () => {
    const { t, customer, p, ask } = await setup();
    const requestId = await ask();
    await customer.as.mutation(api.dispatch.cancel, { requestId });
    expect((await offersOf(t, requestId)).every((o) => o.status === "withdrawn")).toBe(true);
    expect(
      await errorCode(
        p[0].as.mutation(api.dispatch.accept, {
          offerId: (await offerOf(t, requestId, p[0]))._id,
        }),
      ),
    ).toBe("OFFER_CLOSED");
    expect(await bookings(t)).toHaveLength(0);
    // a new request may follow
    await ask();
  });

  test("nobody accepting ends the search unmatched, and the customer is told", async () => {
    const { t, customer, p, ask } = await setup(2);
    const requestId = await ask();
    for (const pro of p)
      await pro.as.mutation(api.dispatch.decline, {
        offerId: (await offerOf(t, requestId, pro))._id,
      });
    expect(await customer.as.query(api.dispatch.get, { requestId })).toMatchObject({
      status: "unmatched",
    });
    const told = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", customer.userId))
        .collect(),
    );
    expect(told.map((n) => n.kind)).toEqual(["dispatch.unmatched"]);

    // ... and so does the time limit with offers still open
    const second = await ask();
    await t.mutation(internal.dispatch.giveUp, { requestId: second });
    expect((await customer.as.query(api.dispatch.get, { requestId: second }))?.status).toBe(
      "unmatched",
    );
    expect((await offersOf(t, second)).every((o) => o.status === "withdrawn")).toBe(true);
  });

  test("with nobody near at all the search ends at once", async () => {
    const { customer, ask } = await setup(0);
    const requestId = await ask();
    expect((await customer.as.query(api.dispatch.get, { requestId }))?.status).toBe("unmatched");
  });

  test("bad input and a second search at once are refused, nothing stored", async () => {
    const { t, ask } = await setup();
    expect(await errorCode(ask(undefined, { pin: { lat: 28.61, lng: 77.2 } }))).toBe(
      "PIN_OUTSIDE_NEPAL",
    );
    expect(await errorCode(ask(undefined, { address: "x" }))).toBe("INVALID_ADDRESS");
    expect(await errorCode(ask(undefined, { serviceIds: [] }))).toBe("NO_SERVICES");
    expect(await t.run((ctx) => ctx.db.query("dispatchRequests").collect())).toHaveLength(0);
    await ask();
    expect(await errorCode(ask())).toBe("TOO_MANY_OPEN_REQUESTS");
  });

  test("refuses other customers, professionals not offered, and foreign ids", async () => {
    const { t, other, p, ask } = await setup(4);
    const requestId = await ask();
    expect(await other.as.query(api.dispatch.get, { requestId })).toBeNull();
    expect(await errorCode(other.as.mutation(api.dispatch.cancel, { requestId }))).toBe(
      "NOT_FOUND",
    );
    const offer = await offerOf(t, requestId, p[0]);
    // the fourth was not offered it: someone else's offer answers as a missing one
    for (const call of [
      () => p[3].as.mutation(api.dispatch.accept, { offerId: offer._id }),
      () => p[3].as.mutation(api.dispatch.decline, { offerId: offer._id }),
    ])
      expect(await errorCode(call())).toBe("NOT_FOUND");
    // customers cannot answer offers, professionals cannot ask
    expect(await errorCode(other.as.mutation(api.dispatch.accept, { offerId: offer._id }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(ask(p[0].as))).toBe("FORBIDDEN");
    expect(await errorCode(t.query(api.dispatch.get, { requestId }))).toBe("UNAUTHENTICATED");
    expect(await bookings(t)).toHaveLength(0);
  });

  test("after a no-show the customer sends the job out again in one tap, never to that professional", async () => {
    const { t, customer, other, p, ask } = await setup(4);
    const requestId = await ask();
    const bookingId = await p[0].as.mutation(api.dispatch.accept, {
      offerId: (await offerOf(t, requestId, p[0]))._id,
    });
    // a booking that is not a no-show is refused
    expect(await errorCode(customer.as.mutation(api.dispatch.redispatch, { bookingId }))).toBe(
      "ILLEGAL_TRANSITION",
    );
    await t.run((ctx) =>
      ctx.db.patch("bookings", bookingId, { scheduledFor: Date.now() - 2 * 3_600_000 }),
    );
    await customer.as.mutation(api.bookings.markNoShow, { bookingId });
    expect(await errorCode(other.as.mutation(api.dispatch.redispatch, { bookingId }))).toBe(
      "NOT_FOUND",
    );
    expect(await errorCode(p[0].as.mutation(api.dispatch.redispatch, { bookingId }))).toBe(
      "FORBIDDEN",
    );
    const again = await customer.as.mutation(api.dispatch.redispatch, { bookingId });
    const offered = (await offersOf(t, again)).map((o) => o.professionalId);
    expect(offered).toEqual(p.slice(1, 1 + DISPATCH.batch).map((x) => x.professionalId));
    expect(await customer.as.query(api.dispatch.get, { requestId: again })).toMatchObject({
      status: "searching",
      pin: PIN,
      address: "House 12, Baneshwor",
    });
  });

  test("nearest-first reads a few grid cells, not the city", async () => {
    const { t } = await setup(0);
    const { professionalId } = await insertProfessional(t);
    // 400 electricians' spots on a 20 × 20 grid ~500 m apart around the pin
    await t.run(async (ctx) => {
      for (let i = 0; i < 400; i++) {
        const lat = PIN.lat + (Math.floor(i / 20) - 10) * 0.0045;
        const lng = PIN.lng + ((i % 20) - 10) * 0.0051;
        await ctx.db.insert("dispatchSpots", {
          professionalId,
          specialty: "electrician",
          city: "kathmandu",
          lat,
          lng,
          cell: cellOf(lat, lng),
          live: true,
          eligible: true,
        });
      }
    });
    const { ids, reads } = await t.query(internal.dispatch.nearest, {
      specialty: "electrician",
      city: "kathmandu",
      pin: PIN,
      limit: 3,
    });
    expect(ids).toHaveLength(3);
    // the pin's cell and two rings around it: a few dozen spots of 400
    expect(reads).toBeLessThanOrEqual(30);
  });
});
