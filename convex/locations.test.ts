import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { upsertCatalog } from "./model/catalog";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  startWithCustomersCode,
  requestElectricianBooking,
} from "./test.setup";

// A point inside Kathmandu chosen off the 0.005° grid.
const EXACT = { longitude: 85.32412, latitude: 27.71723 };

async function setup() {
  vi.useFakeTimers();
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t);
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, {
    name: "Ram Thapa",
    specialty: "electrician",
    city: "kathmandu",
  });
  const plumber = await insertProfessional(t, {
    name: "Hari Rai",
    specialty: "plumber",
    city: "kathmandu",
  });
  const admin = await insertAdmin(t);
  await pro.as.mutation(api.locations.update, { ...EXACT, accuracy: 12 });
  return { t, customer, otherCustomer, pro, plumber, admin };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("locations:update", () => {
  test("a professional's position is upserted with city and specialty from the profile", async () => {
    const { t, pro } = await setup();
    vi.advanceTimersByTime(1000);
    await pro.as.mutation(api.locations.update, { longitude: 85.33, latitude: 27.7 });
    const rows = await t.run((ctx) => ctx.db.query("liveLocations").collect());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      professionalId: pro.professionalId,
      city: "kathmandu",
      specialty: "electrician",
      lng: 85.33,
      lat: 27.7,
    });
  });

  test("at most one write per second", async () => {
    const { pro } = await setup();
    vi.advanceTimersByTime(500);
    expect(await errorCode(pro.as.mutation(api.locations.update, EXACT))).toBe("RATE_LIMITED");
    vi.advanceTimersByTime(500);
    await pro.as.mutation(api.locations.update, EXACT);
  });

  test("ranges are checked", async () => {
    const { pro } = await setup();
    vi.advanceTimersByTime(5000);
    for (const bad of [
      { longitude: 181, latitude: 0 },
      { longitude: -180.5, latitude: 0 },
      { longitude: 0, latitude: 91 },
      { longitude: 0, latitude: -90.1 },
      { longitude: Number.NaN, latitude: 0 },
      { longitude: 0, latitude: 0, accuracy: -1 },
    ]) {
      expect(await errorCode(pro.as.mutation(api.locations.update, bad))).toBe("INVALID_LOCATION");
    }
    await pro.as.mutation(api.locations.update, { longitude: -180, latitude: 90, accuracy: 0 });
  });

  test("visitors, customers and admins cannot report a position", async () => {
    const { t, customer, admin } = await setup();
    expect(await errorCode(t.mutation(api.locations.update, EXACT))).toBe("UNAUTHENTICATED");
    expect(await errorCode(customer.as.mutation(api.locations.update, EXACT))).toBe("FORBIDDEN");
    expect(await errorCode(admin.as.mutation(api.locations.update, EXACT))).toBe("FORBIDDEN");
  });
});

describe("locations:current", () => {
  test("rounded to ~500 m for everyone: visitors, customers, admins and the professional themself", async () => {
    const { t, otherCustomer, pro, admin } = await setup();
    const rounded = { lat: 27.715, lng: 85.325, exact: false };
    expect(await t.query(api.locations.current, {})).toMatchObject([
      {
        professionalId: pro.professionalId,
        name: "Ram Thapa",
        specialtyName: "Electrician",
        ...rounded,
      },
    ]);
    const visitor = await t.query(api.locations.current, {});
    for (const caller of [otherCustomer, admin, pro]) {
      expect(await caller.as.query(api.locations.current, {})).toEqual(visitor);
    }
    expect(
      await otherCustomer.as.query(api.locations.current, { city: "kathmandu" }),
    ).toMatchObject([rounded]);
  });

  test("rounded even for the customer of an active booking (exact positions come from forActiveBookings)", async () => {
    const { t, customer, pro } = await setup();
    const bookingId = await requestElectricianBooking(t, customer.as, pro.professionalId);
    await pro.as.mutation(api.bookings.accept, { bookingId });
    expect((await customer.as.query(api.locations.current, {}))[0]).toMatchObject({
      exact: false,
      lat: 27.715,
    });
  });

  test("filters by city and specialty; hides unverified and unavailable professionals, from admins too", async () => {
    const { t, plumber, admin } = await setup();
    await plumber.as.mutation(api.locations.update, { longitude: 85.31, latitude: 27.7 });
    const pokhara = await insertProfessional(t, { city: "pokhara", verified: false });
    await pokhara.as.mutation(api.locations.update, { longitude: 83.98, latitude: 28.2 });
    expect((await t.query(api.locations.current, {})).map((m) => m.specialty).sort()).toEqual([
      "electrician",
      "plumber",
    ]);
    expect(
      await t.query(api.locations.current, { city: "kathmandu", specialty: "plumber" }),
    ).toMatchObject([{ professionalId: plumber.professionalId }]);
    expect(await t.query(api.locations.current, { city: "pokhara" })).toEqual([]);
    expect(await admin.as.query(api.locations.current, { city: "pokhara" })).toEqual([]);
    await plumber.as.mutation(api.professionals.setAvailability, { available: false });
    expect((await t.query(api.locations.current, {})).map((m) => m.specialty)).toEqual([
      "electrician",
    ]);
  });

  test("positions older than 10 minutes are swept by the cron's mutation", async () => {
    const { t, plumber } = await setup();
    vi.advanceTimersByTime(9 * 60 * 1000);
    await plumber.as.mutation(api.locations.update, { longitude: 85.31, latitude: 27.7 });
    vi.advanceTimersByTime(2 * 60 * 1000);
    await t.mutation(internal.locations.sweepStale, {});
    expect((await t.query(api.locations.current, {})).map((m) => m.specialty)).toEqual(["plumber"]);
  });
});

describe("locations:onMap and locations:marker", () => {
  test("the list names who is on the map; each marker is rounded to ~500 m for everyone", async () => {
    const { t, customer, pro, plumber, admin } = await setup();
    await plumber.as.mutation(api.locations.update, { longitude: 85.31, latitude: 27.7 });
    const unverified = await insertProfessional(t, { name: "Unverified", verified: false });
    await unverified.as.mutation(api.locations.update, EXACT);
    const list = await t.query(api.locations.onMap, { city: "kathmandu" });
    expect(list).toEqual([
      {
        professionalId: plumber.professionalId,
        name: "Hari Rai",
        specialty: "plumber",
        specialtyName: "Plumber",
      },
      {
        professionalId: pro.professionalId,
        name: "Ram Thapa",
        specialty: "electrician",
        specialtyName: "Electrician",
      },
    ]);
    expect(await t.query(api.locations.onMap, { specialty: "plumber" })).toEqual([list[0]]);
    expect(await t.query(api.locations.onMap, { city: "pokhara" })).toEqual([]);
    for (const caller of [t, customer.as, pro.as, admin.as]) {
      expect(await caller.query(api.locations.onMap, {})).toEqual(list);
      expect(
        await caller.query(api.locations.marker, { professionalId: pro.professionalId }),
      ).toEqual({ lat: 27.715, lng: 85.325 });
      expect(
        await caller.query(api.locations.marker, { professionalId: unverified.professionalId }),
      ).toBeNull();
    }
  });

  test("a write inside the same grid cell changes no public result; leaving the cell changes only the marker", async () => {
    const { t, pro } = await setup();
    const publicResults = async () =>
      JSON.stringify([
        await t.query(api.locations.onMap, { city: "kathmandu" }),
        await t.query(api.locations.current, { city: "kathmandu" }),
        await t.query(api.locations.marker, { professionalId: pro.professionalId }),
      ]);
    const before = await publicResults();
    const list = await t.query(api.locations.onMap, { city: "kathmandu" });
    vi.advanceTimersByTime(5000);
    await pro.as.mutation(api.locations.update, { longitude: 85.3243, latitude: 27.7171 });
    expect(await publicResults()).toEqual(before);
    vi.advanceTimersByTime(5000);
    await pro.as.mutation(api.locations.update, { longitude: 85.33, latitude: 27.72 });
    expect(await t.query(api.locations.onMap, { city: "kathmandu" })).toEqual(list);
    expect(await t.query(api.locations.marker, { professionalId: pro.professionalId })).toEqual({
      lat: 27.72,
      lng: 85.33,
    });
  });
});

describe("locations:forBooking", () => {
  test("the booking's customer while active, its professional and admins; strangers get null, as for a missing booking", async () => {
    const { t, customer, otherCustomer, pro, plumber, admin } = await setup();
    const bookingId = await requestElectricianBooking(t, customer.as, pro.professionalId);
    expect(await customer.as.query(api.locations.forBooking, { bookingId })).toBeNull();
    await pro.as.mutation(api.bookings.accept, { bookingId });
    const exact = { lat: EXACT.latitude, lng: EXACT.longitude };
    expect(await customer.as.query(api.locations.forBooking, { bookingId })).toMatchObject(exact);
    expect(await pro.as.query(api.locations.forBooking, { bookingId })).toMatchObject(exact);
    expect(await admin.as.query(api.locations.forBooking, { bookingId })).toMatchObject(exact);
    expect(await errorCode(t.query(api.locations.forBooking, { bookingId }))).toBe(
      "UNAUTHENTICATED",
    );
    // strangers get what a missing booking gets
    expect(await otherCustomer.as.query(api.locations.forBooking, { bookingId })).toBeNull();
    expect(await plumber.as.query(api.locations.forBooking, { bookingId })).toBeNull();
  });
});

describe("locations:forActiveBookings", () => {
  test("exact positions of the customer's active bookings only; customers only", async () => {
    const { t, customer, otherCustomer, pro, plumber, admin } = await setup();
    await plumber.as.mutation(api.locations.update, { longitude: 85.31, latitude: 27.7 });
    const bookingId = await requestElectricianBooking(t, customer.as, pro.professionalId);
    expect(await customer.as.query(api.locations.forActiveBookings, {})).toEqual([]);
    await pro.as.mutation(api.bookings.accept, { bookingId });
    expect(await customer.as.query(api.locations.forActiveBookings, {})).toMatchObject([
      { bookingId, professionalId: pro.professionalId, lat: EXACT.latitude, lng: EXACT.longitude },
    ]);
    expect(await otherCustomer.as.query(api.locations.forActiveBookings, {})).toEqual([]);
    await pro.as.mutation(api.bookings.startTrip, { bookingId });
    await pro.as.mutation(api.bookings.arrive, { bookingId });
    await startWithCustomersCode(customer.as, pro.as, bookingId);
    await pro.as.mutation(api.bookings.complete, { bookingId });
    expect(await customer.as.query(api.locations.forActiveBookings, {})).toEqual([]);
    expect(await errorCode(t.query(api.locations.forActiveBookings, {}))).toBe("UNAUTHENTICATED");
    for (const caller of [pro, admin]) {
      expect(await errorCode(caller.as.query(api.locations.forActiveBookings, {}))).toBe(
        "FORBIDDEN",
      );
    }
  });
});
