import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { noticeText } from "./rules/notificationText";
import {
  billedBooking,
  bookingParties,
  errorCode,
  FAN_JOB_PAISA as TOTAL,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  ledgerSums,
  newTest,
  noticesOf,
  type TestConvex,
} from "./test.setup";

/** A job under way whose customer paid `method`; the admin then suspends its professional. */
async function cancelledAfterPaying(method: "esewa" | "khalti" | "cash" | "unpaid" = "esewa") {
  const t = newTest();
  const { customer, otherCustomer, pro, admin } = await bookingParties(t);
  const bookingId = await billedBooking(t, customer.userId, pro, "in_progress", {
    paidBy: method === "unpaid" ? undefined : method,
  });
  await admin.as.mutation(api.adminAccounts.suspend, {
    userId: pro.userId,
    reason: "Repeated complaints from customers.",
  });
  return { t, customer, otherCustomer, pro, admin, bookingId };
}

const refunds = (t: TestConvex) => t.run((ctx) => ctx.db.query("refunds").collect());

/** The sums per account of a ledger whose every transaction sums to zero. */
async function balancedSums(t: TestConvex) {
  const { unbalanced, ...sums } = await ledgerSums(t);
  expect(unbalanced).toEqual([]);
  return sums;
}

const noticeOf = async (t: TestConvex, userId: Id<"users">, kind: string) =>
  (await noticesOf(t, userId)).find((n) => n.kind === kind)!;

describe("a paid booking that is cancelled", () => {
  test("owes its customer the whole payment: a refund due, in the ledger, the customer told", async () => {
    const { t, customer, admin, bookingId } = await cancelledAfterPaying("esewa");
    const [refund] = await refunds(t);
    expect(refund).toMatchObject({ bookingId, amountPaisa: TOTAL, method: "esewa", state: "due" });
    const { transactions, byAccount } = await balancedSums(t);
    expect(transactions).toBe(2);
    expect(byAccount).toEqual({ platform_funds: TOTAL, customer: 0, refunds_due: -TOTAL });
    expect(await customer.as.query(api.bills.get, { bookingId })).toMatchObject({
      refund: { state: "due", amountPaisa: TOTAL, reference: null },
    });
    expect(await admin.as.query(api.refunds.due, {})).toEqual([
      expect.objectContaining({
        refundId: refund._id,
        amountPaisa: TOTAL,
        customerName: "Sita Sharma",
      }),
    ]);
    const notice = await noticeOf(t, customer.userId, "refund.due");
    expect(noticeText("ne-NP", notice).body).toBe(
      "बुकिङ रद्द भयो: तपाईंले तिर्नुभएको रु. ८५० घर सेवाले फिर्ता गर्छ।",
    );
  });

  test("refunded by an admin with the gateway's reference: paid out of the platform's funds", async () => {
    const { t, customer, admin, bookingId } = await cancelledAfterPaying("khalti");
    const [refund] = await refunds(t);
    const args = { refundId: refund._id, reference: "KHALTI-RF-7781" };
    await admin.as.mutation(api.refunds.markRefunded, args);
    await admin.as.mutation(api.refunds.markRefunded, { ...args, reference: "again" }); // no-op
    expect((await refunds(t))[0]).toMatchObject({
      state: "refunded",
      reference: "KHALTI-RF-7781",
      adminId: admin.userId,
    });
    const { transactions, byAccount } = await balancedSums(t);
    expect(transactions).toBe(3);
    expect(byAccount).toEqual({ platform_funds: 0, customer: 0, refunds_due: 0 });
    expect(await customer.as.query(api.bills.get, { bookingId })).toMatchObject({
      refund: { state: "refunded", reference: "KHALTI-RF-7781" },
    });
    expect(await admin.as.query(api.refunds.due, {})).toEqual([]);
    expect(noticeText("en", await noticeOf(t, customer.userId, "refund.paid")).body).toBe(
      "GharSewa refunded the Nrs. 850 you paid (reference KHALTI-RF-7781).",
    );
  });

  test("paid in cash: the refund comes out of the cash the professional holds", async () => {
    const { t, admin } = await cancelledAfterPaying("cash");
    const [refund] = await refunds(t);
    await admin.as.mutation(api.refunds.markRefunded, {
      refundId: refund._id,
      reference: "Cash handed back",
    });
    expect((await balancedSums(t)).byAccount).toEqual({
      professional_cash: 0,
      customer: 0,
      refunds_due: 0,
    });
  });

  test("unpaid, nothing is refunded", async () => {
    const { t } = await cancelledAfterPaying("unpaid");
    expect(await refunds(t)).toEqual([]);
    expect((await balancedSums(t)).transactions).toBe(0);
  });
});

describe("recording a refund", () => {
  test("is refused to everyone but admins, and changes nothing", async () => {
    const { t, customer, otherCustomer } = await cancelledAfterPaying();
    // the booking's own professional is suspended: another one
    const pro = await insertProfessional(t, { name: "Hari Rai" });
    const [refund] = await refunds(t);
    const args = { refundId: refund._id, reference: "ESEWA-RF-1" };
    for (const who of [customer.as, otherCustomer.as, pro.as]) {
      expect(await errorCode(who.mutation(api.refunds.markRefunded, args))).toBe("FORBIDDEN");
      expect(await errorCode(who.query(api.refunds.due, {}))).toBe("FORBIDDEN");
    }
    expect(await errorCode(t.mutation(api.refunds.markRefunded, args))).toBe("UNAUTHENTICATED");
    expect((await refunds(t))[0].state).toBe("due");
    expect(await otherCustomer.as.query(api.bills.get, { bookingId: refund.bookingId })).toBeNull();
  });

  test("needs a reference of 1 to 200 bytes", async () => {
    const { t, admin } = await cancelledAfterPaying();
    const [refund] = await refunds(t);
    for (const reference of ["  ", "न".repeat(67)])
      expect(
        await errorCode(
          admin.as.mutation(api.refunds.markRefunded, { refundId: refund._id, reference }),
        ),
      ).toBe("INVALID_INPUT");
    expect((await refunds(t))[0].state).toBe("due");
  });
});

describe("an admin cancelling a booking", () => {
  async function underWay(paidBy?: "esewa" | "cash", cash?: "awaiting") {
    const t = newTest();
    const customer = await insertCustomer(t, "Sita Sharma");
    const otherCustomer = await insertCustomer(t, "Gita Karki");
    const pro = await insertProfessional(t, { name: "Ram Thapa" });
    const admin = await insertAdmin(t);
    await t.run((ctx) => ctx.db.patch("users", customer.userId, { language: "ne-NP" }));
    const bookingId = await billedBooking(t, customer.userId, pro, "in_progress", {
      paidBy,
      cash,
    });
    return { t, customer, otherCustomer, pro, admin, bookingId };
  }
  const reason = "The professional reported an emergency at home.";

  test("of a paid job: both parties told in their language, the payment owed back", async () => {
    const { t, customer, pro, admin, bookingId } = await underWay("esewa");
    await admin.as.mutation(api.adminBookings.cancel, { bookingId, reason });
    expect(await t.run((ctx) => ctx.db.get("bookings", bookingId))).toMatchObject({
      status: "cancelled",
      cancelReason: reason,
    });
    expect((await refunds(t))[0]).toMatchObject({ amountPaisa: TOTAL, state: "due" });
    const toCustomer = await noticeOf(t, customer.userId, "booking.cancelled");
    expect(noticeText("ne-NP", toCustomer).body).toContain("घर सेवा");
    expect(noticeText("en", await noticeOf(t, pro.userId, "booking.cancelled")).body).toContain(
      `GharSewa cancelled the booking`,
    );
    expect(await noticeOf(t, customer.userId, "refund.due")).toBeDefined();
  });

  test("is refused to customers, professionals and visitors, and to a finished job", async () => {
    const { t, customer, otherCustomer, pro, admin, bookingId } = await underWay();
    for (const who of [customer.as, otherCustomer.as, pro.as])
      expect(await errorCode(who.mutation(api.adminBookings.cancel, { bookingId, reason }))).toBe(
        "FORBIDDEN",
      );
    expect(await errorCode(t.mutation(api.adminBookings.cancel, { bookingId, reason }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(
      await errorCode(admin.as.mutation(api.adminBookings.cancel, { bookingId, reason: " " })),
    ).toBe("REASON_REQUIRED");
    expect((await t.run((ctx) => ctx.db.get("bookings", bookingId)))!.status).toBe("in_progress");
    const done = await billedBooking(t, customer.userId, pro, "completed");
    expect(
      await errorCode(admin.as.mutation(api.adminBookings.cancel, { bookingId: done, reason })),
    ).toBe("ILLEGAL_TRANSITION");
  });

  test("with cash still unconfirmed: nothing is owed until the customer says they paid it", async () => {
    const { t, customer, pro, admin, bookingId } = await underWay("cash", "awaiting");
    await admin.as.mutation(api.adminBookings.cancel, { bookingId, reason });
    expect(await refunds(t)).toEqual([]);
    expect((await balancedSums(t)).transactions).toBe(0);
    const ask = await noticeOf(t, customer.userId, "cash.cancelled");
    expect(noticeText("ne-NP", ask).title).toBe("के तपाईंले नगद तिर्नुभयो?");
    await customer.as.mutation(api.cash.confirm, { bookingId });
    // booked, then owed back out of the cash the professional holds
    expect((await refunds(t))[0]).toMatchObject({ method: "cash", state: "due" });
    const [refund] = await refunds(t);
    await admin.as.mutation(api.refunds.markRefunded, {
      refundId: refund._id,
      reference: "Cash handed back",
    });
    expect((await balancedSums(t)).byAccount).toEqual({
      professional_cash: 0,
      customer: 0,
      refunds_due: 0,
    });
    expect(await noticeOf(t, pro.userId, "cash.confirmed")).toBeDefined();
  });

  test("with cash still unconfirmed: the customer who did not pay waives it, nothing booked", async () => {
    const { t, customer, otherCustomer, pro, admin, bookingId } = await underWay(
      "cash",
      "awaiting",
    );
    expect(await errorCode(customer.as.mutation(api.cash.notPaid, { bookingId }))).toBe(
      "NOT_CANCELLED",
    );
    await admin.as.mutation(api.adminBookings.cancel, { bookingId, reason });
    for (const who of [otherCustomer.as])
      expect(await errorCode(who.mutation(api.cash.notPaid, { bookingId }))).toBe("NOT_FOUND");
    for (const who of [pro.as, admin.as])
      expect(await errorCode(who.mutation(api.cash.notPaid, { bookingId }))).toBe("FORBIDDEN");
    expect(await errorCode(t.mutation(api.cash.notPaid, { bookingId }))).toBe("UNAUTHENTICATED");
    await customer.as.mutation(api.cash.notPaid, { bookingId });
    await customer.as.mutation(api.cash.notPaid, { bookingId }); // again: no change
    expect(await customer.as.query(api.bills.get, { bookingId })).toMatchObject({
      payment: { cash: "waived" },
      refund: null,
    });
    expect((await balancedSums(t)).transactions).toBe(0);
    expect(noticeText("en", await noticeOf(t, pro.userId, "cash.not_paid")).body).toBe(
      "Sita Sharma says the Nrs. 850 in cash was not paid before the booking was cancelled: nothing is owed.",
    );
  });

  test("with cash nobody answers: it lapses, waived, and no refund is owed", async () => {
    const { t, admin, bookingId } = await underWay("cash", "awaiting");
    await admin.as.mutation(api.adminBookings.cancel, { bookingId, reason });
    const payment = await t.run((ctx) =>
      ctx.db
        .query("payments")
        .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
        .first(),
    );
    await t.mutation(internal.cash.autoConfirm, { paymentId: payment!._id });
    expect((await t.run((ctx) => ctx.db.get("payments", payment!._id)))!.cash!.state).toBe(
      "waived",
    );
    expect(await refunds(t)).toEqual([]);
    expect((await balancedSums(t)).transactions).toBe(0);
  });
});
