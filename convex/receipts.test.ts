import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { recordPayment } from "./model/ledger";
import {
  billedBooking,
  bookingParties,
  errorCode,
  FAN_JOB_PAISA,
  newTest,
  type TestConvex,
} from "./test.setup";

/** Fan Installation Nrs. 650 + visit Nrs. 200 + an approved part Nrs. 250.50, a declined one. */
const TOTAL = FAN_JOB_PAISA + 25_050;

async function setup() {
  const t = newTest();
  const parties = await bookingParties(t);
  const newBooking = async () => {
    const id = await billedBooking(t, parties.customer.userId, parties.pro, "completed");
    await t.run(async (ctx) => {
      for (const status of ["approved", "declined"] as const)
        await ctx.db.insert("billLines", {
          bookingId: id,
          kind: "part",
          label: `Capacitor ${status}`,
          amountPaisa: 25_050,
          status,
          reason: "The old one burnt out",
        });
    });
    return id;
  };
  return { t, ...parties, newBooking };
}

async function paidByKhalti(t: TestConvex, bookingId: Id<"bookings">, customerId: Id<"users">) {
  await t.run(async (ctx) => {
    await ctx.db.insert("paymentAttempts", {
      bookingId,
      customerId,
      method: "khalti",
      reference: `order-${bookingId}`,
      pidx: `pidx-${bookingId}`,
      amountPaisa: TOTAL,
      state: "paid",
      gatewayId: "GFq9PFS7b2iYvL8Lir9oXe",
      checks: 1,
      updatedAt: Date.now(),
    });
    await recordPayment(ctx, {
      bookingId,
      method: "khalti",
      amountPaisa: TOTAL,
      reference: `pidx-${bookingId}`,
    });
  });
}

describe("a paid booking's receipt", () => {
  test("cash, once confirmed: numbered, the approved lines, paid to the professional", async () => {
    const { customer, pro, newBooking } = await setup();
    const bookingId = await newBooking();
    await pro.as.mutation(api.cash.markReceived, { bookingId, amountPaisa: TOTAL });
    expect(await customer.as.query(api.receipts.get, { bookingId })).toBeNull();
    await customer.as.mutation(api.cash.confirm, { bookingId });
    const receipt = await customer.as.query(api.receipts.get, { bookingId });
    expect(receipt).toMatchObject({
      number: "GS-000001",
      method: "cash",
      amountPaisa: TOTAL,
      totalPaisa: TOTAL,
      reference: null,
      gatewayId: null,
      paidTo: "professional",
      customerName: "Sita Sharma",
      professionalName: "Ram Thapa",
      city: "kathmandu",
    });
    expect(receipt?.cashConfirmedAt).toEqual(expect.any(Number));
    expect(receipt?.lines).toEqual([
      { kind: "service", label: "Fan Installation", amountPaisa: 65_000 },
      { kind: "visit", label: "Visit charge", amountPaisa: 20_000 },
      { kind: "part", label: "Capacitor approved", amountPaisa: 25_050 },
    ]);
  });

  test("Khalti: the gateway's transaction id, paid to GharSewa; numbers follow in order", async () => {
    const { t, customer, pro, newBooking } = await setup();
    const first = await newBooking();
    await paidByKhalti(t, first, customer.userId);
    const second = await newBooking();
    await pro.as.mutation(api.cash.markReceived, { bookingId: second, amountPaisa: TOTAL });
    await customer.as.mutation(api.cash.confirm, { bookingId: second });
    expect(await customer.as.query(api.receipts.get, { bookingId: first })).toMatchObject({
      number: "GS-000001",
      method: "khalti",
      reference: `pidx-${first}`,
      gatewayId: "GFq9PFS7b2iYvL8Lir9oXe",
      paidTo: "platform",
      cashConfirmedAt: null,
    });
    expect((await pro.as.query(api.receipts.get, { bookingId: second }))?.number).toBe("GS-000002");
  });

  test("no receipt for cash awaiting an answer or disputed, nor for an unpaid booking", async () => {
    const { customer, pro, admin, newBooking } = await setup();
    const unpaid = await newBooking();
    const disputed = await newBooking();
    await pro.as.mutation(api.cash.markReceived, { bookingId: disputed, amountPaisa: TOTAL });
    await customer.as.mutation(api.cash.dispute, {
      bookingId: disputed,
      text: "I paid only half of it in cash.",
    });
    for (const bookingId of [unpaid, disputed])
      expect(await admin.as.query(api.receipts.get, { bookingId })).toBeNull();
  });

  test("its customer, its professional and admins read it; others get none, visitors are refused", async () => {
    const { t, customer, otherCustomer, pro, otherPro, admin, newBooking } = await setup();
    const bookingId = await newBooking();
    await paidByKhalti(t, bookingId, customer.userId);
    for (const who of [customer, pro, admin])
      expect((await who.as.query(api.receipts.get, { bookingId }))?.number).toBe("GS-000001");
    for (const who of [otherCustomer, otherPro])
      expect(await who.as.query(api.receipts.get, { bookingId })).toBeNull();
    expect(await errorCode(t.query(api.receipts.get, { bookingId }))).toBe("UNAUTHENTICATED");
  });
});
