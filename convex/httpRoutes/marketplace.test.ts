import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "../_generated/api";
import { upsertCatalog } from "../model/catalog";
import {
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  requestElectricianBooking,
} from "../test.setup";

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t);
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { specialty: "electrician", city: "kathmandu" });
  const otherPro = await insertProfessional(t, { specialty: "electrician", city: "kathmandu" });
  const admin = await insertAdmin(t);
  const bookingId = await requestElectricianBooking(t, customer.as, pro.professionalId);
  return { t, customer, otherCustomer, pro, otherPro, admin, bookingId };
}

async function body(res: Response) {
  expect(res.headers.get("Content-Type")).toMatch(/application\/json/);
  return (await res.json()) as Record<string, unknown>;
}

const jsonInit = (method: string, payload: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(payload),
});

afterEach(() => {
  vi.useRealTimers();
});

describe("GET /api/services/*", () => {
  test("names by category (spec aliases resolve) and details by city", async () => {
    const { t } = await setup();
    const names = await t.fetch("/api/services/category/Electrician");
    expect(names.status).toBe(200);
    expect((await body(names)).names).toContain("House Wiring");
    expect((await body(await t.fetch("/api/services/category/Manson"))).names).toContain(
      "Crack Repair",
    );

    const details = await t.fetch("/api/services/Electrician/House%20Wiring/Kathmandu");
    expect(details.status).toBe(200);
    expect((await body(details)).service).toMatchObject({
      name: "House Wiring",
      availableCities: [{ name: "kathmandu", price: 4550 }],
    });
  });

  test("unknown service, malformed path or method: JSON 4xx", async () => {
    const { t } = await setup();
    const missing = await t.fetch("/api/services/electrical/Nope/Kathmandu");
    expect(missing.status).toBe(404);
    expect(await body(missing)).toMatchObject({ success: false, code: "NOT_FOUND" });
    expect((await t.fetch("/api/services/electrical")).status).toBe(404);
    expect((await t.fetch("/api/services/category/%E0%A4")).status).toBe(400);
    expect((await t.fetch("/api/services/category/x", { method: "POST" })).status).toBe(405);
  });
});

describe("GET /api/current-locations", () => {
  test("markers in the spec's shape, rounded for visitors, exact for admins", async () => {
    const { t, pro, admin } = await setup();
    await pro.as.mutation(api.locations.update, { longitude: 85.32412, latitude: 27.71723 });
    const visitor = await body(await t.fetch("/api/current-locations"));
    expect(visitor.Technicians).toMatchObject([
      { _id: pro.professionalId, currentLocation: { coordinates: [85.325, 27.715] }, exact: false },
    ]);
    expect(visitor).toEqual({
      success: true,
      Technicians: [
        {
          _id: pro.professionalId,
          name: expect.any(String),
          specialty: "electrician",
          currentLocation: { type: "Point", coordinates: [85.325, 27.715] },
          exact: false,
          updatedAt: expect.any(Number),
        },
      ],
    });
    const asAdmin = await body(await admin.as.fetch("/api/current-locations"));
    expect(asAdmin.Technicians).toMatchObject([
      { currentLocation: { coordinates: [85.32412, 27.71723] }, exact: true },
    ]);
  });
});

describe("POST /api/current-location", () => {
  test("the caller's own position only, validated and rate limited", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, otherPro } = await setup();
    const payload = { userId: pro.userId, longitude: 85.3, latitude: 27.7 };
    expect((await pro.as.fetch("/api/current-location", jsonInit("POST", payload))).status).toBe(
      200,
    );
    const limited = await pro.as.fetch("/api/current-location", jsonInit("POST", payload));
    expect(limited.status).toBe(429);
    expect(await body(limited)).toMatchObject({ code: "RATE_LIMITED" });
    vi.advanceTimersByTime(1000);
    expect(
      (
        await pro.as.fetch(
          "/api/current-location",
          jsonInit("POST", { ...payload, longitude: 200 }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await pro.as.fetch(
          "/api/current-location",
          jsonInit("POST", { ...payload, latitude: "north" }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await pro.as.fetch(
          "/api/current-location",
          jsonInit("POST", { longitude: 85, latitude: 27 }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await pro.as.fetch("/api/current-location", {
          method: "POST",
          body: "{",
          headers: { "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(400);
    expect(
      (await pro.as.fetch("/api/current-location", { method: "POST", body: "x" })).status,
    ).toBe(415);
    expect(
      (await otherPro.as.fetch("/api/current-location", jsonInit("POST", payload))).status,
    ).toBe(403);
    expect(
      (
        await customer.as.fetch(
          "/api/current-location",
          jsonInit("POST", { ...payload, userId: customer.userId }),
        )
      ).status,
    ).toBe(403);
    expect((await t.fetch("/api/current-location", jsonInit("POST", payload))).status).toBe(401);
    const row = await t.run((ctx) => ctx.db.query("liveLocations").collect());
    expect(row).toMatchObject([{ lng: 85.3, lat: 27.7 }]);
  });
});

describe("/api/bookings/{id}", () => {
  test("GET: that user or an admin sees the user's bookings in the spec's shape", async () => {
    const { t, customer, otherCustomer, pro, otherPro, admin, bookingId } = await setup();
    // the professional learns the exact address once they accept (model/bookings.ts view)
    for (const [as, userId, address] of [
      [pro.as, pro.userId, null],
      [customer.as, customer.userId, "Baneshwor"],
      [admin.as, pro.userId, "Baneshwor"],
    ] as const) {
      const res = await as.fetch(`/api/bookings/${userId}`);
      expect(res.status).toBe(200);
      const list = (await body(res)).technicianBooking as Record<string, unknown>[];
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        _id: bookingId,
        status: "requested",
        location: { address },
        services: [{ name: "Fan Installation", serviceCategory: "electrical" }],
      });
    }
    // someone else's list answers exactly as a user who does not exist: ids cannot be probed
    const gone = await insertCustomer(t, "Gone User");
    await t.run((ctx) => ctx.db.delete("users", gone.userId));
    const answers = [];
    for (const [as, userId] of [
      [otherCustomer.as, customer.userId],
      [otherPro.as, pro.userId],
      [otherCustomer.as, gone.userId],
      [otherCustomer.as, "not-an-id"],
    ] as const) {
      const res = await as.fetch(`/api/bookings/${userId}`);
      answers.push({ status: res.status, body: await body(res) });
    }
    expect(answers).toEqual(
      Array(4).fill({
        status: 404,
        body: { success: false, code: "NOT_FOUND", message: "This user was not found." },
      }),
    );
    expect((await t.fetch(`/api/bookings/${pro.userId}`)).status).toBe(401);
    expect((await admin.as.fetch("/api/bookings/not-an-id")).status).toBe(404);
  });

  test("PUT: its professional accepts or rejects; others and bad input refused", async () => {
    const { t, customer, pro, otherPro, admin, bookingId } = await setup();
    const put = (as: Pick<typeof t, "fetch">, status: unknown, id: string = bookingId) =>
      as.fetch(`/api/bookings/${id}`, jsonInit("PUT", { status }));
    expect((await put(t, "accepted")).status).toBe(401);
    expect((await put(customer.as, "accepted")).status).toBe(403);
    expect((await put(admin.as, "accepted")).status).toBe(403);
    // another professional's request answers exactly as one that does not exist
    const notFound = { success: false, code: "NOT_FOUND", message: "This booking was not found." };
    const stranger = await put(otherPro.as, "accepted");
    expect({ status: stranger.status, body: await body(stranger) }).toEqual({
      status: 404,
      body: notFound,
    });
    const gone = await t.run(async (ctx) => {
      const { _id, _creationTime, ...rest } = (await ctx.db.get("bookings", bookingId))!;
      const copy = await ctx.db.insert("bookings", rest);
      await ctx.db.delete("bookings", copy);
      return copy;
    });
    const missing = await put(otherPro.as, "accepted", gone);
    expect({ status: missing.status, body: await body(missing) }).toEqual({
      status: 404,
      body: notFound,
    });
    expect((await put(pro.as, "completed")).status).toBe(400);
    expect((await put(pro.as, "accepted", "nope")).status).toBe(404);
    const ok = await put(pro.as, "accepted");
    expect(ok.status).toBe(200);
    expect(await body(ok)).toEqual({ success: true, status: "accepted" });
    expect((await put(pro.as, "accepted")).status).toBe(200);
    const illegal = await put(pro.as, "rejected");
    expect(illegal.status).toBe(400);
    expect(await body(illegal)).toMatchObject({ code: "ILLEGAL_TRANSITION" });
    expect(await t.run(async (ctx) => (await ctx.db.get("bookings", bookingId))!.status)).toBe(
      "accepted",
    );
  });
});

describe("CORS", () => {
  test("preflight and responses carry the caller's origin", async () => {
    const { t } = await setup();
    const origin = "http://127.0.0.1:5173";
    const preflight = await t.fetch("/api/bookings/x", {
      method: "OPTIONS",
      headers: { Origin: origin, "Access-Control-Request-Method": "PUT" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe(origin);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toMatch(/PUT/);
    const res = await t.fetch("/api/services/category/Plumber", { headers: { Origin: origin } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(origin);
    const refused = await t.fetch("/api/bookings/x", { headers: { Origin: origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe(origin);
  });
});
