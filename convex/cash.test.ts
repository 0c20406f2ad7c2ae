import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { professionalBalance, recordPayment } from "./model/ledger";
import { CASH_AUTO_CONFIRM_MS } from "./rules/ledger";
import { noticeText } from "./rules/notificationText";
import {
  billedBooking,
  bookingParties,
  errorCode,
  errorMessage,
  FAN_JOB_PAISA as TOTAL,
  newTest,
  noticesOf,
  type TestConvex,
} from "./test.setup";
import type { BookingStatus } from "./validators";

afterEach(() => {
  vi.useRealTimers();
});

async function setup(status: BookingStatus = "in_progress") {
  const t = newTest();
  const parties = await bookingParties(t);
  const bookingId = await billedBooking(t, parties.customer.userId, parties.pro, status);
  return { t, ...parties, bookingId };
}

const mark = (bookingId: Id<"bookings">, amountPaisa = TOTAL) => ({ bookingId, amountPaisa });

const payment = (t: TestConvex, bookingId: Id<"bookings">) =>
  t.run((ctx) =>
    ctx.db
      .query("payments")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
      .first(),
  );

const entries = (t: TestConvex) => t.run((ctx) => ctx.db.query("ledgerEntries").collect());

const kinds = async (t: TestConvex, userId: Id<"users">) =>
  (await noticesOf(t, userId)).map((n) => n.kind);

/** Every transaction sums to zero; returns the sums per account. */
async function ledgerSums(t: TestConvex) {
  const byTx = new Map<string, number>();
  const byAccount: Record<string, number> = {};
  for (const e of await entries(t)) {
    expect(Number.isSafeInteger(e.amountPaisa)).toBe(true);
    byTx.set(e.txId, (byTx.get(e.txId) ?? 0) + e.amountPaisa);
    byAccount[e.account] = (byAccount[e.account] ?? 0) + e.amountPaisa;
  }
  for (const sum of byTx.values()) expect(sum).toBe(0);
  return { transactions: byTx.size, byAccount };
}

describe("the professional records cash received", () => {
  test("the bill's total: awaiting the customer, nothing booked yet, the customer told", async () => {
    const { t, customer, pro, bookingId } = await setup();
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    expect(await payment(t, bookingId)).toMatchObject({
      method: "cash",
      amountPaisa: TOTAL,
      cash: { state: "awaiting" },
    });
    expect(await entries(t)).toEqual([]);
    const bill = await customer.as.query(api.bills.get, { bookingId });
    expect(bill?.payment).toMatchObject({ method: "cash", cash: "awaiting" });
    expect(await kinds(t, customer.userId)).toEqual(["cash.recorded"]);
  });

  test("refuses another amount than the bill's, saying what the bill is", async () => {
    const { t, pro, bookingId } = await setup();
    const call = pro.as.mutation(api.cash.markReceived, mark(bookingId, 80_000));
    expect(await errorMessage(call)).toBe("The bill is Nrs. 850, not Nrs. 800.");
    expect(await errorCode(pro.as.mutation(api.cash.markReceived, mark(bookingId, 95_000)))).toBe(
      "WRONG_AMOUNT",
    );
    expect(await payment(t, bookingId)).toBeNull();
  });

  test("refuses negative, zero, fractional and huge amounts", async () => {
    const { t, pro, bookingId } = await setup();
    for (const amount of [-TOTAL, 0, 850.5, Number.NaN, 1e15])
      expect(await errorCode(pro.as.mutation(api.cash.markReceived, mark(bookingId, amount)))).toBe(
        "WRONG_AMOUNT",
      );
    expect(await payment(t, bookingId)).toBeNull();
  });

  test("refuses marking twice", async () => {
    const { t, pro, bookingId } = await setup();
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    const again = pro.as.mutation(api.cash.markReceived, mark(bookingId));
    expect(await errorMessage(again)).toBe("You already recorded the cash for this booking.");
    expect(await errorCode(pro.as.mutation(api.cash.markReceived, mark(bookingId)))).toBe(
      "ALREADY_PAID",
    );
    const rows = await t.run((ctx) => ctx.db.query("payments").collect());
    expect(rows).toHaveLength(1);
  });

  test("refuses a booking paid by wallet", async () => {
    const { t, pro, bookingId } = await setup();
    await t.run((ctx) =>
      recordPayment(ctx, { bookingId, method: "khalti", amountPaisa: TOTAL, reference: "pidx-1" }),
    );
    const call = pro.as.mutation(api.cash.markReceived, mark(bookingId));
    expect(await errorMessage(call)).toBe("This booking is already paid.");
  });

  test("refuses a cancelled booking, and one not under way yet", async () => {
    for (const status of ["cancelled", "accepted"] as const) {
      const { t, pro, bookingId } = await setup(status);
      expect(await errorCode(pro.as.mutation(api.cash.markReceived, mark(bookingId)))).toBe(
        "NOT_PAYABLE",
      );
      expect(await payment(t, bookingId)).toBeNull();
    }
  });

  test("refuses while an item on the bill waits for the customer", async () => {
    const { t, pro, bookingId } = await setup();
    await pro.as.mutation(api.bills.propose, {
      bookingId,
      kind: "part",
      label: "Capacitor",
      amountPaisa: 45_000,
      reason: "Burnt",
    });
    expect(await errorCode(pro.as.mutation(api.cash.markReceived, mark(bookingId)))).toBe(
      "BILL_PENDING",
    );
    expect(await payment(t, bookingId)).toBeNull();
  });

  test("refuses someone else's booking, customers, admins and visitors", async () => {
    const { t, customer, otherPro, admin, bookingId } = await setup();
    expect(await errorCode(otherPro.as.mutation(api.cash.markReceived, mark(bookingId)))).toBe(
      "NOT_FOUND",
    );
    for (const who of [customer.as, admin.as])
      expect(await errorCode(who.mutation(api.cash.markReceived, mark(bookingId)))).toBe(
        "FORBIDDEN",
      );
    expect(await errorCode(t.mutation(api.cash.markReceived, mark(bookingId)))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await payment(t, bookingId)).toBeNull();
  });
});

describe("the customer answers", () => {
  test("confirms: the payment, the commission and the earning are booked, balanced", async () => {
    const { t, customer, pro, bookingId } = await setup("completed");
    await t.run((ctx) => ctx.db.insert("settings", { key: "commissionPercent", value: 10 }));
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    await customer.as.mutation(api.cash.confirm, { bookingId });
    await customer.as.mutation(api.cash.confirm, { bookingId }); // a retry changes nothing
    expect((await payment(t, bookingId))?.cash?.state).toBe("confirmed");
    const commission = 8_500;
    const { transactions, byAccount } = await ledgerSums(t);
    expect(transactions).toBe(2);
    expect(byAccount).toEqual({
      customer: 0,
      professional_cash: TOTAL,
      commission: -commission,
      professional_earning: -(TOTAL - commission),
    });
    // the professional holds the cash and owes the platform its commission
    expect(await t.run((ctx) => professionalBalance(ctx, pro.professionalId))).toEqual({
      earnedPaisa: TOTAL - commission,
      cashHeldPaisa: TOTAL,
      duePaisa: -commission,
    });
    expect(await kinds(t, pro.userId)).toEqual(["cash.confirmed"]);
    expect(await errorCode(customer.as.mutation(api.cash.dispute, disputeArgs(bookingId)))).toBe(
      "ALREADY_DECIDED",
    );
  });

  test("cash confirmed during the job is split once the job is done", async () => {
    const { t, customer, pro, bookingId } = await setup("in_progress");
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    await customer.as.mutation(api.cash.confirm, { bookingId });
    expect((await ledgerSums(t)).transactions).toBe(1);
    await pro.as.mutation(api.bookings.complete, { bookingId });
    const { transactions, byAccount } = await ledgerSums(t);
    expect(transactions).toBe(2);
    expect(byAccount.customer).toBe(0);
    expect(byAccount.professional_earning).toBe(-(TOTAL - 8_500));
  });

  test("disputes: a report in the admin's queue, nothing booked, the professional told", async () => {
    const { t, customer, pro, admin, bookingId } = await setup("completed");
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    await customer.as.mutation(api.cash.dispute, disputeArgs(bookingId));
    await customer.as.mutation(api.cash.dispute, disputeArgs(bookingId)); // a retry changes nothing
    const row = await payment(t, bookingId);
    expect(row?.cash?.state).toBe("disputed");
    const reports = await t.run((ctx) => ctx.db.query("reports").collect());
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      _id: row?.cash?.reportId,
      bookingId,
      category: "cash_dispute",
      status: "open",
      reporterId: customer.userId,
    });
    const queue = await admin.as.query(api.adminReports.list, {
      status: "open",
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(queue.page.map((r: { category: string }) => r.category)).toEqual(["cash_dispute"]);
    expect(await entries(t)).toEqual([]);
    expect(await kinds(t, pro.userId)).toEqual(["cash.disputed"]);
    expect(await errorCode(customer.as.mutation(api.cash.confirm, { bookingId }))).toBe(
      "ALREADY_DECIDED",
    );
  });

  test("a dispute says what is wrong in 10 to 1000 characters", async () => {
    const { t, customer, pro, bookingId } = await setup();
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    for (const text of ["short", "x".repeat(1001)])
      expect(await errorCode(customer.as.mutation(api.cash.dispute, { bookingId, text }))).toBe(
        "INVALID_INPUT",
      );
    expect((await payment(t, bookingId))?.cash?.state).toBe("awaiting");
  });

  test("refuses confirming cash that is not yours, or that nobody recorded", async () => {
    const { t, otherCustomer, pro, admin, customer, bookingId } = await setup();
    expect(await errorMessage(customer.as.mutation(api.cash.confirm, { bookingId }))).toBe(
      "No cash payment was recorded on this booking.",
    );
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    for (const call of [
      () => otherCustomer.as.mutation(api.cash.confirm, { bookingId }),
      () => otherCustomer.as.mutation(api.cash.dispute, disputeArgs(bookingId)),
    ])
      expect(await errorCode(call())).toBe("NOT_FOUND");
    for (const who of [pro.as, admin.as])
      expect(await errorCode(who.mutation(api.cash.confirm, { bookingId }))).toBe("FORBIDDEN");
    expect(await errorCode(t.mutation(api.cash.confirm, { bookingId }))).toBe("UNAUTHENTICATED");
    expect((await payment(t, bookingId))?.cash?.state).toBe("awaiting");
    expect(await entries(t)).toEqual([]);
  });

  test("a wallet payment is not cash to confirm", async () => {
    const { t, customer, bookingId } = await setup();
    await t.run((ctx) =>
      recordPayment(ctx, { bookingId, method: "esewa", amountPaisa: TOTAL, reference: "e-1" }),
    );
    expect(await errorCode(customer.as.mutation(api.cash.confirm, { bookingId }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("unanswered cash", () => {
  test("is confirmed and booked 48 hours after it was recorded; both sides are told", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, bookingId } = await setup("completed");
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    vi.advanceTimersByTime(CASH_AUTO_CONFIRM_MS - 60_000);
    await t.finishInProgressScheduledFunctions();
    expect((await payment(t, bookingId))?.cash?.state).toBe("awaiting");
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect((await payment(t, bookingId))?.cash?.state).toBe("confirmed");
    expect((await ledgerSums(t)).transactions).toBe(2);
    expect(await kinds(t, customer.userId)).toEqual(["cash.recorded", "cash.auto_confirmed"]);
    expect(await kinds(t, pro.userId)).toEqual(["cash.auto_confirmed"]);
  });

  test("a disputed payment stays disputed after 48 hours", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, bookingId } = await setup("completed");
    await pro.as.mutation(api.cash.markReceived, mark(bookingId));
    await customer.as.mutation(api.cash.dispute, disputeArgs(bookingId));
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect((await payment(t, bookingId))?.cash?.state).toBe("disputed");
    expect(await entries(t)).toEqual([]);
  });
});

describe("the notices", () => {
  test("are worded in both languages with the amount in rupees", () => {
    const n = {
      kind: "cash.recorded",
      title: "",
      body: "",
      params: { actor: "Ram Thapa", actorRole: "professional", amount: "110050" },
    };
    expect(noticeText("en", n).body).toBe(
      "Ram Thapa recorded Nrs. 1,100.50 received in cash. Confirm it, or tell us if it is wrong.",
    );
    expect(noticeText("ne-NP", n).body).toBe(
      "Ram Thapaले रु. १,१००.५० नगद पाएको लेख्नुभयो। पुष्टि गर्नुहोस्, वा गलत भए हामीलाई भन्नुहोस्।",
    );
    expect(noticeText("ne-NP", { ...n, kind: "cash.disputed" }).title).toBe("नगदमा विवाद");
  });
});

function disputeArgs(bookingId: Id<"bookings">) {
  return { bookingId, text: "I paid only Nrs. 500, not the full bill." };
}
