import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  type TestConvex,
} from "./test.setup";

const HOUR = 3_600_000;
const PIN = { lat: 27.7004123456, lng: 85.3301987654 };

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t);
  const pro = await insertProfessional(t);
  const admin = await insertAdmin(t);
  const service = await t.run((ctx) =>
    ctx.db
      .query("services")
      .withIndex("by_category_and_name", (q) => q.eq("category", "electrical"))
      .first(),
  );
  const book = (pin?: { lat: number; lng: number }) =>
    customer.as.mutation(api.bookings.create, {
      professionalId: pro.professionalId,
      serviceIds: [service!._id],
      address: "House 12, Baneshwor",
      city: "kathmandu",
      scheduledFor: Date.now() + 2 * HOUR,
      ...(pin ? { pin } : {}),
    });
  return { t, customer, pro, admin, book };
}

const stored = (t: TestConvex, id: Id<"bookings">) =>
  t.run(async (ctx) => (await ctx.db.get("bookings", id))!);

describe("a booking's map pin", () => {
  test("is stored beside the typed address, rounded to about a metre", async () => {
    const { t, book } = await setup();
    const id = await book(PIN);
    const b = await stored(t, id);
    expect(b.address).toBe("House 12, Baneshwor");
    expect(b.pin).toEqual({ lat: 27.70041, lng: 85.3302 });
  });

  test("is optional when booking a chosen professional", async () => {
    const { t, book } = await setup();
    const b = await stored(t, await book());
    expect(b.pin).toBeUndefined();
  });

  test("outside Nepal is refused and nothing is booked", async () => {
    const { t, book } = await setup();
    expect(await errorCode(book({ lat: 28.6139, lng: 77.209 }))).toBe("PIN_OUTSIDE_NEPAL");
    expect(await errorCode(book({ lat: Number.NaN, lng: 85.3 }))).toBe("PIN_OUTSIDE_NEPAL");
    expect(await t.run((ctx) => ctx.db.query("bookings").collect())).toHaveLength(0);
  });

  test("the professional sees the pin and exact address only while the booking is active", async () => {
    const { customer, pro, admin, book } = await setup();
    const id = await book(PIN);
    const asPro = () => pro.as.query(api.bookings.get, { bookingId: id });

    const requested = await asPro();
    expect(requested?.address).toBeNull();
    expect(requested?.pin).toBeNull();
    expect(requested?.cityName).toBe("Kathmandu");

    await pro.as.mutation(api.bookings.accept, { bookingId: id });
    const accepted = await asPro();
    expect(accepted?.address).toBe("House 12, Baneshwor");
    expect(accepted?.pin).toEqual({ lat: 27.70041, lng: 85.3302 });

    await customer.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Plans changed" });
    const cancelled = await asPro();
    expect(cancelled?.address).toBeNull();
    expect(cancelled?.pin).toBeNull();

    // the customer and admins always see it
    expect((await customer.as.query(api.bookings.get, { bookingId: id }))?.pin).toEqual(
      accepted?.pin,
    );
    expect((await admin.as.query(api.bookings.get, { bookingId: id }))?.address).toBe(
      "House 12, Baneshwor",
    );
    const page = await pro.as.query(api.bookings.forProfessional, {
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(page.page[0].address).toBeNull();
  });
});
