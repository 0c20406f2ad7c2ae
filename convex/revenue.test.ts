import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { openBill } from "./model/bill";
import { recordPayment } from "./model/ledger";
import { refundOnCancel } from "./model/refunds";
import { DAY_MS } from "./rules/earnings";
import { kathmanduMonthStart, revenueBounds } from "./rules/revenue";
import {
  billedBooking,
  bookingRow,
  errorCode,
  everyKindOfCaller,
  insertAdmin,
  insertCustomer,
  insertPaidJob,
  insertProfessional,
  newTest,
  type TestConvex,
} from "./test.setup";

afterEach(() => {
  vi.useRealTimers();
});

/** 27 Nov 2026, noon in Kathmandu. */
const NOW = Date.UTC(2026, 10, 27, 6, 15);

async function setup() {
  vi.useFakeTimers({ now: NOW - 2 * DAY_MS, toFake: ["Date"] });
  const t = newTest();
  const admin = await insertAdmin(t);
  const customer = await insertCustomer(t, "Sita Sharma");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  return { t, admin, customer, pro };
}

/** A job under way paid with eSewa, then cancelled: its payment is owed back. */
async function refundedJob(
  t: TestConvex,
  customerId: Parameters<typeof bookingRow>[0],
  pro: Parameters<typeof bookingRow>[1],
) {
  await t.run(async (ctx) => {
    const id = await ctx.db.insert("bookings", bookingRow(customerId, pro, "in_progress"));
    await openBill(ctx, id, [{ name: "Fan Installation", price: 400 }], 0);
    await recordPayment(ctx, {
      bookingId: id,
      method: "esewa",
      amountPaisa: 40_000,
      reference: `e:${id}`,
    });
    await ctx.db.patch("bookings", id, { status: "cancelled" });
    await refundOnCancel(ctx, (await ctx.db.get("bookings", id))!);
  });
}

describe("the admin's revenue", () => {
  test("sums jobs, gross by gateway and cash, commission and refunds per Kathmandu day and in all", async () => {
    const { t, admin, customer, pro } = await setup();
    await insertPaidJob(t, customer.userId, pro, { rupees: 1000, method: "khalti" });
    await insertPaidJob(t, customer.userId, pro, { rupees: 500, method: "cash" });
    vi.setSystemTime(NOW);
    await insertPaidJob(t, customer.userId, pro, { rupees: 2000, method: "esewa" });
    await refundedJob(t, customer.userId, pro);
    const bounds = revenueBounds("day", NOW);
    const { periods, total, truncated } = await admin.as.query(api.revenue.summary, { bounds });
    expect(truncated).toBe(false);
    expect(total).toEqual({
      jobs: 3,
      grossPaisa: 350_000,
      gatewayPaisa: 300_000,
      cashPaisa: 50_000,
      commissionPaisa: 35_000,
      feesPaisa: 0,
      feeCommissionPaisa: 0,
      refundsPaisa: 40_000,
    });
    expect(periods).toHaveLength(30);
    const busy = periods.filter((p) => p.jobs > 0 || p.refundsPaisa > 0);
    expect(busy).toEqual([
      expect.objectContaining({
        jobs: 2,
        grossPaisa: 150_000,
        gatewayPaisa: 100_000,
        cashPaisa: 50_000,
        commissionPaisa: 15_000,
        refundsPaisa: 0,
      }),
      expect.objectContaining({
        start: periods[29].start,
        jobs: 1,
        grossPaisa: 200_000,
        gatewayPaisa: 200_000,
        cashPaisa: 0,
        commissionPaisa: 20_000,
        refundsPaisa: 40_000,
      }),
    ]);
    expect(busy[0].start).toBe(periods[27].start);
  });

  test("late-cancellation fees apart from commission; the platform's share of them apart too", async () => {
    const { t, admin, customer, pro } = await setup();
    vi.setSystemTime(NOW);
    await insertPaidJob(t, customer.userId, pro, { rupees: 1000, method: "khalti" });
    const bookingId = await billedBooking(t, customer.userId, pro, "en_route");
    await customer.as.mutation(api.bookings.cancel, {
      bookingId,
      reason: "Found someone closer, sorry.",
      seenFeePaisa: 20_000,
    });
    await t.run((ctx) =>
      recordPayment(ctx, { bookingId, method: "esewa", amountPaisa: 20_000, reference: "fee-1" }),
    );
    const { periods } = await admin.as.query(api.revenue.summary, {
      bounds: revenueBounds("day", NOW),
    });
    // 10% commission on the job and on the fee
    expect(periods[29]).toMatchObject({
      jobs: 1,
      grossPaisa: 100_000,
      commissionPaisa: 10_000,
      feesPaisa: 20_000,
      feeCommissionPaisa: 2_000,
    });
  });

  test("per month: the whole year's periods, this month's jobs in the last", async () => {
    const { t, admin, customer, pro } = await setup();
    await insertPaidJob(t, customer.userId, pro, { rupees: 1000 });
    const bounds = revenueBounds("month", NOW);
    expect(bounds).toHaveLength(13);
    expect(bounds[11]).toBe(kathmanduMonthStart(NOW));
    expect(bounds[12]).toBe(Date.UTC(2026, 11, 1) - (5 * 60 + 45) * 60_000);
    const { periods } = await admin.as.query(api.revenue.summary, { bounds });
    expect(periods.map((p) => p.jobs)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  test("refuses periods that are not 2 to 32 increasing instants within 400 days", async () => {
    const { admin } = await setup();
    for (const bounds of [
      [NOW],
      [NOW, NOW],
      [NOW, NOW - 1],
      [0, 401 * DAY_MS],
      [0, 0.5],
      Array.from({ length: 33 }, (_, i) => i),
    ])
      expect(await errorCode(admin.as.query(api.revenue.summary, { bounds }))).toBe(
        "INVALID_INPUT",
      );
  });

  test("is for admins only", async () => {
    const t = newTest();
    const { visitor, customer, professional } = await everyKindOfCaller(t);
    const args = { bounds: revenueBounds("day", NOW) };
    expect(await errorCode(visitor.query(api.revenue.summary, args))).toBe("UNAUTHENTICATED");
    for (const who of [customer, professional])
      expect(await errorCode(who.query(api.revenue.summary, args))).toBe("FORBIDDEN");
  });
});
