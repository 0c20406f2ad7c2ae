import { beforeAll, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { upsertCatalog } from "./model/catalog";
import {
  bookingRow,
  errorCode,
  everyKindOfCaller,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  requestElectricianBooking,
  useAuthEnv,
} from "./test.setup";

beforeAll(useAuthEnv);

const page = { numItems: 20, cursor: null };

describe("adminBookings", () => {
  test("list and get are for admins only", async () => {
    const t = newTest();
    const { visitor, customer, professional } = await everyKindOfCaller(t);
    for (const as of [customer, professional])
      expect(await errorCode(as.query(api.adminBookings.list, { paginationOpts: page }))).toBe(
        "FORBIDDEN",
      );
    expect(await errorCode(visitor.query(api.adminBookings.list, { paginationOpts: page }))).toBe(
      "UNAUTHENTICATED",
    );
    const bookingId = await t.run(async (ctx) => {
      const c = await ctx.db.query("users").first();
      const p = await ctx.db.query("professionals").first();
      return await ctx.db.insert(
        "bookings",
        bookingRow(c!._id, { professionalId: p!._id, userId: p!.userId }, "requested"),
      );
    });
    expect(await errorCode(customer.query(api.adminBookings.get, { bookingId }))).toBe("FORBIDDEN");
  });

  test("filters by status, city, professional and customer, newest first, page by page", async () => {
    const t = newTest();
    const admin = await insertAdmin(t);
    const ram = await insertProfessional(t, { name: "Ram" });
    const hari = await insertProfessional(t, { name: "Hari", city: "pokhara" });
    const sita = await insertCustomer(t, "Sita");
    const gita = await insertCustomer(t, "Gita");
    const ids = await t.run(async (ctx) => ({
      a: await ctx.db.insert("bookings", bookingRow(sita.userId, ram, "requested")),
      b: await ctx.db.insert("bookings", bookingRow(gita.userId, ram, "completed")),
      c: await ctx.db.insert(
        "bookings",
        bookingRow(sita.userId, hari, "requested", { city: "pokhara" }),
      ),
      d: await ctx.db.insert(
        "bookings",
        bookingRow(gita.userId, hari, "cancelled", { city: "pokhara" }),
      ),
    }));
    const list = async (filters: Record<string, unknown>) =>
      (await admin.as.query(api.adminBookings.list, { ...filters, paginationOpts: page })).page.map(
        (b) => b._id,
      );
    expect(await list({})).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(await list({ status: "requested" })).toEqual([ids.c, ids.a]);
    expect(await list({ city: "pokhara" })).toEqual([ids.d, ids.c]);
    expect(await list({ city: "pokhara", status: "cancelled" })).toEqual([ids.d]);
    expect(await list({ professionalId: ram.professionalId })).toEqual([ids.b, ids.a]);
    expect(await list({ professionalId: ram.professionalId, status: "completed" })).toEqual([
      ids.b,
    ]);
    expect(await list({ customerId: sita.userId })).toEqual([ids.c, ids.a]);
    expect(await list({ customerId: gita.userId, status: "cancelled" })).toEqual([ids.d]);
    expect(
      await errorCode(
        admin.as.query(api.adminBookings.list, {
          city: "pokhara",
          customerId: sita.userId,
          paginationOpts: page,
        }),
      ),
    ).toBe("INVALID_INPUT");
    const first = await admin.as.query(api.adminBookings.list, {
      paginationOpts: { numItems: 3, cursor: null },
    });
    const second = await admin.as.query(api.adminBookings.list, {
      paginationOpts: { numItems: 3, cursor: first.continueCursor },
    });
    expect([...first.page, ...second.page].map((b) => b._id)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(second.isDone).toBe(true);
  });

  test("get: the event log in order, naming who did each step, with the review", async () => {
    const t = newTest();
    await t.run((ctx) => upsertCatalog(ctx));
    const admin = await insertAdmin(t);
    const ram = await insertProfessional(t);
    const sita = await insertCustomer(t);
    const bookingId = await requestElectricianBooking(t, sita.as, ram.professionalId);
    await ram.as.mutation(api.bookings.accept, { bookingId });
    await sita.as.mutation(api.bookings.cancel, { bookingId, reason: "Plans changed" });
    const booking = await admin.as.query(api.adminBookings.get, { bookingId });
    expect(
      booking?.events.map((e) => [e.from, e.to, e.actor?.name, e.actor?.role, e.reason]),
    ).toEqual([
      [null, "requested", "Sita Sharma", "customer", null],
      ["requested", "accepted", "Ram Thapa", "professional", null],
      ["accepted", "cancelled", "Sita Sharma", "customer", "Plans changed"],
    ]);
    expect(booking).toMatchObject({ status: "cancelled", cancelledBy: "customer", review: null });
    expect(booking?.customer.phone).toBe("9800000001");
  });
});
