import { afterEach, describe, expect, test, vi } from "vitest";
import { internal } from "./_generated/api";
import {
  billedBooking,
  insertCustomer,
  insertProfessional,
  newTest,
  type TestConvex,
} from "./test.setup";

/** Receipts by payment, as the backfill leaves them. */
const receipts = (t: TestConvex) =>
  t.run(async (ctx) =>
    (await ctx.db.query("receipts").collect()).map((r) => ({
      paymentId: r.paymentId,
      n: r.number,
    })),
  );

/**
 * Seven bookings paid before receipts existed (five by wallet, one cash confirmed, one cash still
 * awaiting its customer's answer) and one unpaid: their receipts deleted, as an old database has none.
 */
async function oldDatabase() {
  const t = newTest();
  const customer = await insertCustomer(t);
  const pro = await insertProfessional(t);
  for (const paidBy of ["esewa", "khalti", "esewa", "khalti", "esewa"] as const)
    await billedBooking(t, customer.userId, pro, "completed", { paidBy });
  await billedBooking(t, customer.userId, pro, "completed", { paidBy: "cash" });
  await billedBooking(t, customer.userId, pro, "in_progress", { paidBy: "cash", cash: "awaiting" });
  await billedBooking(t, customer.userId, pro, "in_progress");
  await t.run(async (ctx) => {
    for (const r of await ctx.db.query("receipts").collect())
      await ctx.db.delete("receipts", r._id);
  });
  const paid = await t.run(async (ctx) =>
    (await ctx.db.query("payments").collect())
      .filter((p) => p.cash === undefined || p.cash.state === "confirmed")
      .map((p) => p._id),
  );
  return { t, paid };
}

async function backfill(t: TestConvex) {
  await t.mutation(internal.receipts.backfill, { cursor: null, pageSize: 2 });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the receipt backfill", () => {
  test("gives every paid booking one receipt over several pages, numbered in payment order", async () => {
    vi.useFakeTimers();
    const { t, paid } = await oldDatabase();
    expect(paid).toHaveLength(6);
    await backfill(t);
    // 7 payments in pages of 2: 4 runs, each scheduling the next
    expect(await receipts(t)).toEqual(paid.map((paymentId, i) => ({ paymentId, n: i + 1 })));
  });

  test("run twice, or after receipts were issued, it issues nothing new", async () => {
    vi.useFakeTimers();
    const { t } = await oldDatabase();
    await backfill(t);
    const once = await receipts(t);
    await backfill(t);
    expect(await receipts(t)).toEqual(once);
    // a database whose receipts exist already is left as it is
    const fresh = newTest();
    const customer = await insertCustomer(fresh);
    const pro = await insertProfessional(fresh);
    await billedBooking(fresh, customer.userId, pro, "completed", { paidBy: "esewa" });
    const issued = await receipts(fresh);
    await backfill(fresh);
    expect(await receipts(fresh)).toEqual(issued);
    expect(issued).toHaveLength(1);
  });
});
