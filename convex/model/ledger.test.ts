import { describe, expect, test } from "vitest";
import type { Id } from "../_generated/dataModel";
import { ACCOUNTS } from "../rules/ledger";
import { MAX_AMOUNT_PAISA } from "../rules/money";
import {
  bookingRow,
  errorCode,
  insertCustomer,
  insertProfessional,
  newTest,
  type TestConvex,
} from "../test.setup";
import type { BookingStatus } from "../validators";
import { billOf, openBill } from "./bill";
import {
  confirmCash,
  paymentOf,
  post,
  professionalBalance,
  recordPayment,
  settleJob,
} from "./ledger";

/** A booking in `status` whose bill is Nrs. 1,500 + 250.50 of approved lines. */
async function setup(status: BookingStatus = "in_progress") {
  const t = newTest();
  const customer = await insertCustomer(t);
  const pro = await insertProfessional(t);
  const bookingId = await t.run(async (ctx) => {
    const id = await ctx.db.insert("bookings", bookingRow(customer.userId, pro, status));
    await openBill(ctx, id, [{ name: "Fan Installation", price: 1500 }], 0);
    await ctx.db.insert("billLines", {
      bookingId: id,
      kind: "part",
      label: "Capacitor",
      amountPaisa: 25_050,
      status: "approved",
      reason: "The old one burnt out",
    });
    return id;
  });
  return { t, customer, pro, bookingId };
}

const TOTAL = 150_000 + 25_050;

const pay = (
  t: TestConvex,
  bookingId: Id<"bookings">,
  over: Partial<{
    method: "cash" | "esewa" | "khalti";
    amountPaisa: number;
    reference: string;
  }> = {},
) =>
  t.run((ctx) =>
    recordPayment(ctx, {
      bookingId,
      method: "esewa",
      amountPaisa: TOTAL,
      reference: "txn-0001",
      ...over,
    }),
  );

const entries = (t: TestConvex) => t.run((ctx) => ctx.db.query("ledgerEntries").collect());

/** Every transaction's entries sum to zero. */
async function expectBalanced(t: TestConvex) {
  const byTx = new Map<string, number>();
  for (const e of await entries(t)) {
    expect(Number.isSafeInteger(e.amountPaisa)).toBe(true);
    byTx.set(e.txId, (byTx.get(e.txId) ?? 0) + e.amountPaisa);
  }
  for (const sum of byTx.values()) expect(sum).toBe(0);
  return byTx.size;
}

async function accountSums(t: TestConvex) {
  const sums = Object.fromEntries(ACCOUNTS.map((a) => [a, 0])) as Record<string, number>;
  for (const e of await entries(t)) sums[e.account] += e.amountPaisa;
  return sums;
}

describe("the bill", () => {
  test("totals the approved lines in paisa; proposed and declined lines do not count", async () => {
    const { t, bookingId } = await setup();
    await t.run(async (ctx) => {
      for (const status of ["proposed", "declined"] as const)
        await ctx.db.insert("billLines", {
          bookingId,
          kind: "extra",
          label: `Extra ${status}`,
          amountPaisa: 99_900,
          status,
          reason: "More work",
        });
    });
    const bill = await t.run(async (ctx) =>
      billOf(ctx, (await ctx.db.get("bookings", bookingId))!),
    );
    expect(bill.totalPaisa).toBe(TOTAL);
    expect(bill.paid).toBe(false);
    expect(bill.lines.map((l) => [l.kind, l.amountPaisa, l.status])).toEqual([
      ["service", 150_000, "approved"],
      ["part", 25_050, "approved"],
      ["extra", 99_900, "proposed"],
      ["extra", 99_900, "declined"],
    ]);
  });

  test("a service priced on inspection opens no line; the visit charge opens one", async () => {
    const { t, customer, pro } = await setup();
    const bill = await t.run(async (ctx) => {
      const id = await ctx.db.insert("bookings", bookingRow(customer.userId, pro, "requested"));
      await openBill(ctx, id, [{ name: "Marble Flooring", price: 0 }], 300);
      return await billOf(ctx, (await ctx.db.get("bookings", id))!);
    });
    expect(bill.lines).toEqual([
      { kind: "visit", label: "Visit charge", amountPaisa: 30_000, status: "approved" },
    ]);
    expect(bill.totalPaisa).toBe(30_000);
  });
});

describe("recordPayment", () => {
  test("records the bill's total once: customer credited, the platform's funds debited", async () => {
    const { t, bookingId } = await setup();
    expect(await pay(t, bookingId)).toBe("recorded");
    expect(await expectBalanced(t)).toBe(1);
    expect(await accountSums(t)).toMatchObject({ customer: -TOTAL, platform_funds: TOTAL });
    const bill = await t.run(async (ctx) =>
      billOf(ctx, (await ctx.db.get("bookings", bookingId))!),
    );
    expect(bill.paid).toBe(true);
  });

  test("the same reference again, or a second payment of a paid booking, records nothing", async () => {
    const { t, bookingId } = await setup();
    expect(await pay(t, bookingId)).toBe("recorded");
    expect(await pay(t, bookingId)).toBe("duplicate");
    expect(await pay(t, bookingId, { method: "khalti", reference: "pidx-other" })).toBe(
      "duplicate",
    );
    expect(await pay(t, bookingId, { method: "cash", reference: "cash" })).toBe("duplicate");
    expect(await expectBalanced(t)).toBe(1);
    expect(await t.run((ctx) => ctx.db.query("payments").collect())).toHaveLength(1);
  });

  test("a reference already used for another booking records nothing on this one", async () => {
    const { t, bookingId, customer, pro } = await setup();
    const other = await t.run(async (ctx) => {
      const id = await ctx.db.insert("bookings", bookingRow(customer.userId, pro, "in_progress"));
      await openBill(ctx, id, [{ name: "Fan Installation", price: 1500 }], 0);
      return id;
    });
    expect(await pay(t, bookingId)).toBe("recorded");
    expect(await pay(t, other, { amountPaisa: 150_000 })).toBe("duplicate");
    const paid = await t.run(async (ctx) => billOf(ctx, (await ctx.db.get("bookings", other))!));
    expect(paid.paid).toBe(false);
  });

  test("refuses a wrong, negative, fractional or huge amount and records nothing", async () => {
    const { t, bookingId } = await setup();
    for (const amountPaisa of [
      TOTAL - 1,
      TOTAL + 100,
      -TOTAL,
      0,
      TOTAL + 0.5,
      MAX_AMOUNT_PAISA * 10,
      NaN,
    ])
      expect(await errorCode(pay(t, bookingId, { amountPaisa }))).toBe("WRONG_AMOUNT");
    expect(await entries(t)).toEqual([]);
  });

  test("refuses a cancelled booking and one not yet under way", async () => {
    for (const status of ["cancelled", "requested", "accepted", "rejected", "expired"] as const) {
      const { t, bookingId } = await setup(status);
      expect(await errorCode(pay(t, bookingId))).toBe("NOT_PAYABLE");
      expect(await entries(t)).toEqual([]);
    }
  });

  test("refuses while an item waits for the customer's answer", async () => {
    const { t, bookingId } = await setup();
    await t.run((ctx) =>
      ctx.db.insert("billLines", {
        bookingId,
        kind: "part",
        label: "Switch",
        amountPaisa: 10_000,
        status: "proposed",
        reason: "Broken",
      }),
    );
    expect(await errorCode(pay(t, bookingId))).toBe("BILL_PENDING");
  });

  test("a booking that does not exist is not found", async () => {
    const { t, bookingId } = await setup();
    await t.run((ctx) => ctx.db.delete("bookings", bookingId));
    expect(await errorCode(pay(t, bookingId))).toBe("NOT_FOUND");
  });
});

describe("commission and earning", () => {
  test("a paid job, once done, is split by the admin's commission percent", async () => {
    const { t, bookingId, pro } = await setup();
    await t.run((ctx) => ctx.db.insert("settings", { key: "commissionPercent", value: 12 }));
    await pay(t, bookingId);
    await t.run(async (ctx) => {
      await ctx.db.patch("bookings", bookingId, { status: "completed" });
      const booking = (await ctx.db.get("bookings", bookingId))!;
      await settleJob(ctx, booking);
      await settleJob(ctx, booking); // once only
    });
    const commission = Math.round(TOTAL * 0.12);
    expect(await expectBalanced(t)).toBe(2);
    expect(await accountSums(t)).toMatchObject({
      customer: 0,
      platform_funds: TOTAL,
      commission: -commission,
      professional_earning: -(TOTAL - commission),
    });
    const balance = await t.run((ctx) => professionalBalance(ctx, pro.professionalId));
    expect(balance).toEqual({
      earnedPaisa: TOTAL - commission,
      cashHeldPaisa: 0,
      duePaisa: TOTAL - commission,
    });
  });

  test("cash is booked only once confirmed, leaving the professional owing the commission", async () => {
    const { t, bookingId, pro } = await setup("completed");
    expect(await pay(t, bookingId, { method: "cash", reference: `cash:${bookingId}` })).toBe(
      "recorded",
    );
    expect(await entries(t)).toEqual([]);
    const payment = await t.run((ctx) => paymentOf(ctx, bookingId));
    expect(await t.run((ctx) => confirmCash(ctx, payment!._id))).toBe(true);
    expect(await t.run((ctx) => confirmCash(ctx, payment!._id))).toBe(false); // once only
    const commission = Math.round(TOTAL * 0.1);
    expect(await expectBalanced(t)).toBe(2);
    const balance = await t.run((ctx) => professionalBalance(ctx, pro.professionalId));
    expect(balance).toEqual({
      earnedPaisa: TOTAL - commission,
      cashHeldPaisa: TOTAL,
      duePaisa: -commission,
    });
    // the balance is the sum of the professional's rows
    const sums = await accountSums(t);
    expect(balance.duePaisa).toBe(-(sums.professional_earning + sums.professional_cash));
  });

  test("no commission before the job is paid", async () => {
    const { t, bookingId } = await setup("completed");
    await t.run(async (ctx) => settleJob(ctx, (await ctx.db.get("bookings", bookingId))!));
    expect(await entries(t)).toEqual([]);
  });
});

describe("post", () => {
  test("refuses a transaction that does not sum to zero, or of fractions", async () => {
    const { t } = await setup();
    for (const entries of [
      [
        { account: "customer" as const, amountPaisa: -100 },
        { account: "platform_funds" as const, amountPaisa: 99 },
      ],
      [
        { account: "customer" as const, amountPaisa: -0.5 },
        { account: "platform_funds" as const, amountPaisa: 0.5 },
      ],
      [{ account: "customer" as const, amountPaisa: 0 }],
    ])
      await expect(
        t.run((ctx) => post(ctx, { txId: "bad", kind: "fee", entries })),
      ).rejects.toThrow(/Unbalanced/);
    expect(await entries(t)).toEqual([]);
  });
});
