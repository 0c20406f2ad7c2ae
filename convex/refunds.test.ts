import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { openBill } from "./model/bill";
import { confirmCash, paymentOf, recordPayment } from "./model/ledger";
import { noticeText } from "./rules/notificationText";
import {
  bookingRow,
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  type TestConvex,
} from "./test.setup";

/** Fan Installation Nrs. 650 + visit Nrs. 200. */
const TOTAL = 85_000;

/** A job under way whose customer paid `method`; the admin then suspends its professional. */
async function cancelledAfterPaying(method: "esewa" | "khalti" | "cash" | "unpaid" = "esewa") {
  const t = newTest();
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  const admin = await insertAdmin(t);
  const bookingId = await t.run(async (ctx) => {
    const id = await ctx.db.insert("bookings", bookingRow(customer.userId, pro, "in_progress"));
    await openBill(ctx, id, [{ name: "Fan Installation", price: 650 }], 200);
    if (method === "unpaid") return id;
    await recordPayment(ctx, {
      bookingId: id,
      method,
      amountPaisa: TOTAL,
      reference: `${method}-ref-1`,
    });
    if (method === "cash") await confirmCash(ctx, (await paymentOf(ctx, id))!._id);
    return id;
  });
  await admin.as.mutation(api.adminAccounts.suspend, {
    userId: pro.userId,
    reason: "Repeated complaints from customers.",
  });
  return { t, customer, otherCustomer, pro, admin, bookingId };
}

const refunds = (t: TestConvex) => t.run((ctx) => ctx.db.query("refunds").collect());

/** Every transaction sums to zero; returns the sums per account. */
async function ledgerSums(t: TestConvex) {
  const byTx = new Map<string, number>();
  const byAccount: Record<string, number> = {};
  for (const e of await t.run((ctx) => ctx.db.query("ledgerEntries").collect())) {
    byTx.set(e.txId, (byTx.get(e.txId) ?? 0) + e.amountPaisa);
    byAccount[e.account] = (byAccount[e.account] ?? 0) + e.amountPaisa;
  }
  for (const sum of byTx.values()) expect(sum).toBe(0);
  return { transactions: byTx.size, byAccount };
}

const noticeOf = async (t: TestConvex, userId: Id<"users">, kind: string) =>
  (
    await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", userId))
        .collect(),
    )
  ).find((n) => n.kind === kind)!;

describe("a paid booking that is cancelled", () => {
  test("owes its customer the whole payment: a refund due, in the ledger, the customer told", async () => {
    const { t, customer, admin, bookingId } = await cancelledAfterPaying("esewa");
    const [refund] = await refunds(t);
    expect(refund).toMatchObject({ bookingId, amountPaisa: TOTAL, method: "esewa", state: "due" });
    const { transactions, byAccount } = await ledgerSums(t);
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
    const { transactions, byAccount } = await ledgerSums(t);
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
    expect((await ledgerSums(t)).byAccount).toEqual({
      professional_cash: 0,
      customer: 0,
      refunds_due: 0,
    });
  });

  test("unpaid, nothing is refunded", async () => {
    const { t } = await cancelledAfterPaying("unpaid");
    expect(await refunds(t)).toEqual([]);
    expect((await ledgerSums(t)).transactions).toBe(0);
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
