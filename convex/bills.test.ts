import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { recordPayment } from "./model/ledger";
import { bookingParties, errorCode, newTest, type TestConvex } from "./test.setup";

const HOUR = 60 * 60 * 1000;

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  await t.run((ctx) => ctx.db.insert("settings", { key: "visitChargeNrs", value: 200 }));
  const { customer, otherCustomer, pro, otherPro, admin } = await bookingParties(t);
  const fan = await t.run(async (ctx) => {
    const s = await ctx.db
      .query("services")
      .withIndex("by_category_and_name", (q) =>
        q.eq("category", "electrical").eq("name", "Fan Installation"),
      )
      .unique();
    return s!._id;
  });
  const bookingId = await customer.as.mutation(api.bookings.create, {
    professionalId: pro.professionalId,
    serviceIds: [fan],
    address: "House 12, Baneshwor",
    city: "kathmandu",
    scheduledFor: Date.now() + HOUR / 2,
  });
  return { t, customer, otherCustomer, pro, otherPro, admin, bookingId };
}

const setStatus = (t: TestConvex, id: Id<"bookings">, status: "in_progress" | "accepted") =>
  t.run((ctx) => ctx.db.patch("bookings", id, { status }));

const part = (bookingId: Id<"bookings">, amountPaisa = 45_050) => ({
  bookingId,
  kind: "part" as const,
  label: "Capacitor",
  amountPaisa,
  reason: "The fan's capacitor is burnt",
});

describe("the booked price", () => {
  test("opens the bill: the catalogue price for the city and the visit charge, in paisa", async () => {
    const { t, customer, bookingId } = await setup();
    const bill = await customer.as.query(api.bills.get, { bookingId });
    // Fan Installation: 500 × 1.3 in Kathmandu
    expect(bill?.lines.map((l) => [l.kind, l.label, l.amountPaisa, l.status])).toEqual([
      ["service", "Fan Installation", 65_000, "approved"],
      ["visit", "Visit charge", 20_000, "approved"],
    ]);
    expect(bill?.totalPaisa).toBe(85_000);
    const booking = await t.run((ctx) => ctx.db.get("bookings", bookingId));
    expect(booking?.price).toBe(850);
  });

  test("its customer, its professional and admins see the bill; nobody else", async () => {
    const { customer, otherCustomer, pro, otherPro, admin, bookingId } = await setup();
    for (const who of [customer, pro, admin])
      expect(await who.as.query(api.bills.get, { bookingId })).not.toBeNull();
    for (const who of [otherCustomer, otherPro])
      expect(await who.as.query(api.bills.get, { bookingId })).toBeNull();
  });
});

describe("items added on site", () => {
  test("the professional adds a part; it counts once the customer approves it", async () => {
    const { t, customer, pro, bookingId } = await setup();
    await setStatus(t, bookingId, "in_progress");
    const lineId = await pro.as.mutation(api.bills.propose, part(bookingId));
    let bill = await customer.as.query(api.bills.get, { bookingId });
    expect(bill?.lines.at(-1)).toMatchObject({
      _id: lineId,
      status: "proposed",
      reason: "The fan's capacitor is burnt",
    });
    expect(bill?.totalPaisa).toBe(85_000);
    await customer.as.mutation(api.bills.decide, { lineId, approve: true });
    await customer.as.mutation(api.bills.decide, { lineId, approve: true }); // a retry changes nothing
    bill = await pro.as.query(api.bills.get, { bookingId });
    expect(bill?.totalPaisa).toBe(85_000 + 45_050);
    expect(
      await errorCode(customer.as.mutation(api.bills.decide, { lineId, approve: false })),
    ).toBe("ALREADY_DECIDED");
  });

  test("a declined item does not count", async () => {
    const { t, customer, pro, bookingId } = await setup();
    await setStatus(t, bookingId, "in_progress");
    const lineId = await pro.as.mutation(api.bills.propose, part(bookingId));
    await customer.as.mutation(api.bills.decide, { lineId, approve: false });
    expect((await customer.as.query(api.bills.get, { bookingId }))?.totalPaisa).toBe(85_000);
  });

  test("refuses other professionals, customers, other customers and visitors", async () => {
    const { t, customer, otherCustomer, pro, otherPro, bookingId } = await setup();
    await setStatus(t, bookingId, "in_progress");
    expect(await errorCode(otherPro.as.mutation(api.bills.propose, part(bookingId)))).toBe(
      "NOT_FOUND",
    );
    expect(await errorCode(customer.as.mutation(api.bills.propose, part(bookingId)))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(t.mutation(api.bills.propose, part(bookingId)))).toBe("UNAUTHENTICATED");
    const lineId = await pro.as.mutation(api.bills.propose, part(bookingId));
    expect(
      await errorCode(otherCustomer.as.mutation(api.bills.decide, { lineId, approve: true })),
    ).toBe("NOT_FOUND");
    expect(await errorCode(pro.as.mutation(api.bills.decide, { lineId, approve: true }))).toBe(
      "FORBIDDEN",
    );
    const line = await t.run((ctx) => ctx.db.get("billLines", lineId));
    expect(line?.status).toBe("proposed");
  });

  test("refuses negative, fractional, zero and huge amounts, and bad labels", async () => {
    const { t, pro, bookingId } = await setup();
    await setStatus(t, bookingId, "in_progress");
    for (const amount of [-100, 0, 10.5, 1e15, Number.MAX_SAFE_INTEGER + 2])
      expect(await errorCode(pro.as.mutation(api.bills.propose, part(bookingId, amount)))).toBe(
        "INVALID_AMOUNT",
      );
    expect(
      await errorCode(pro.as.mutation(api.bills.propose, { ...part(bookingId), label: " " })),
    ).toBe("INVALID_INPUT");
    expect(
      await errorCode(pro.as.mutation(api.bills.propose, { ...part(bookingId), reason: "x" })),
    ).toBe("INVALID_INPUT");
    const lines = await t.run((ctx) => ctx.db.query("billLines").collect());
    expect(lines).toHaveLength(2);
  });

  test("the bill changes only while the job is in progress and unpaid", async () => {
    const { t, pro, bookingId } = await setup();
    await setStatus(t, bookingId, "accepted");
    expect(await errorCode(pro.as.mutation(api.bills.propose, part(bookingId)))).toBe(
      "BILL_CLOSED",
    );
    await setStatus(t, bookingId, "in_progress");
    await t.run((ctx) =>
      recordPayment(ctx, { bookingId, method: "esewa", amountPaisa: 85_000, reference: "e-1" }),
    );
    expect(await errorCode(pro.as.mutation(api.bills.propose, part(bookingId)))).toBe(
      "ALREADY_PAID",
    );
  });

  test("a quote for a service priced on inspection becomes the bill once accepted", async () => {
    const { t, customer, pro, bookingId } = await setup();
    await t.run((ctx) =>
      ctx.db.patch("bookings", bookingId, {
        status: "in_progress",
        services: [],
      }),
    );
    const lineId = await pro.as.mutation(api.bills.propose, {
      bookingId,
      kind: "quote",
      label: "Marble flooring, 20 sq ft",
      amountPaisa: 1_200_000,
      reason: "Measured on site",
    });
    await customer.as.mutation(api.bills.decide, { lineId, approve: true });
    expect((await customer.as.query(api.bills.get, { bookingId }))?.totalPaisa).toBe(
      85_000 + 1_200_000,
    );
  });
});

describe("completing the job", () => {
  test("waits until the customer has answered every item", async () => {
    const { t, customer, pro, bookingId } = await setup();
    await setStatus(t, bookingId, "in_progress");
    const lineId = await pro.as.mutation(api.bills.propose, part(bookingId));
    expect(await errorCode(pro.as.mutation(api.bookings.complete, { bookingId }))).toBe(
      "BILL_PENDING",
    );
    await customer.as.mutation(api.bills.decide, { lineId, approve: false });
    await pro.as.mutation(api.bookings.complete, { bookingId });
    const booking = await t.run((ctx) => ctx.db.get("bookings", bookingId));
    expect(booking?.status).toBe("completed");
  });

  test("a job paid before completion has its commission taken at completion", async () => {
    const { t, pro, bookingId } = await setup();
    await setStatus(t, bookingId, "in_progress");
    await t.run((ctx) =>
      recordPayment(ctx, { bookingId, method: "khalti", amountPaisa: 85_000, reference: "pidx-1" }),
    );
    await pro.as.mutation(api.bookings.complete, { bookingId });
    const rows = await t.run((ctx) => ctx.db.query("ledgerEntries").collect());
    expect(rows.filter((r) => r.kind === "job").map((r) => [r.account, r.amountPaisa])).toEqual([
      ["customer", 85_000],
      ["commission", -8_500],
      ["professional_earning", -76_500],
    ]);
  });
});
