import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { noticeText } from "./rules/notificationText";
import {
  billedBooking,
  bookingParties,
  errorCode,
  FAN_JOB_PAISA as TOTAL,
  newTest,
  noticesOf,
  type TestConvex,
} from "./test.setup";
import type { BookingStatus } from "./validators";

/** 10% of the bill. */
const COMMISSION = 8_500;

/** A completed job whose customer disputed the cash its professional recorded. */
async function disputed(status: BookingStatus = "completed") {
  const t = newTest();
  const { customer, pro, otherPro, admin } = await bookingParties(t);
  const bookingId = await billedBooking(t, customer.userId, pro, status);
  await pro.as.mutation(api.cash.markReceived, { bookingId, amountPaisa: TOTAL });
  await customer.as.mutation(api.cash.dispute, {
    bookingId,
    text: "I paid only Nrs. 500, not the full bill.",
  });
  const reportId = (await paymentRow(t, bookingId))!.cash!.reportId!;
  return { t, customer, pro, otherPro, admin, bookingId, reportId };
}

const paymentRow = (t: TestConvex, bookingId: Id<"bookings">) =>
  t.run((ctx) =>
    ctx.db
      .query("payments")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
      .first(),
  );

const table = <T extends "ledgerEntries" | "receipts">(t: TestConvex, name: T) =>
  t.run((ctx) => ctx.db.query(name).collect());

const REASON = "The customer's receipt shows the full amount.";

describe("an admin settles disputed cash", () => {
  test("lists open disputes with both parties and what the customer wrote", async () => {
    const { admin, bookingId, reportId } = await disputed();
    expect(await admin.as.query(api.cashDisputes.open, {})).toEqual([
      expect.objectContaining({
        bookingId,
        reportId,
        amountPaisa: TOTAL,
        customerName: "Sita Sharma",
        professionalName: "Ram Thapa",
        text: "I paid only Nrs. 500, not the full bill.",
      }),
    ]);
  });

  test("as paid: booked like a confirmation, receipt issued, report resolved, both told", async () => {
    const { t, customer, pro, admin, bookingId, reportId } = await disputed();
    const args = { reportId, outcome: "paid" as const, reason: REASON };
    await admin.as.mutation(api.cashDisputes.settle, args);
    await admin.as.mutation(api.cashDisputes.settle, { ...args, outcome: "waived" }); // too late
    expect((await paymentRow(t, bookingId))?.cash).toMatchObject({
      state: "confirmed",
      reportId,
      settledBy: admin.userId,
    });
    const sums: Record<string, number> = {};
    for (const e of await table(t, "ledgerEntries"))
      sums[e.account] = (sums[e.account] ?? 0) + e.amountPaisa;
    expect(sums).toEqual({
      customer: 0,
      professional_cash: TOTAL,
      commission: -COMMISSION,
      professional_earning: -(TOTAL - COMMISSION),
    });
    expect(await table(t, "receipts")).toHaveLength(1);
    const report = await t.run((ctx) => ctx.db.get("reports", reportId));
    expect(report).toMatchObject({ status: "resolved", resolution: { note: REASON } });
    for (const userId of [customer.userId, pro.userId]) {
      const last = (await noticesOf(t, userId)).at(-1)!;
      expect(last.kind).toBe("cash.settled");
      expect(noticeText("en", last).body).toBe(
        `GharSewa settled the dispute: the Nrs. 850 in cash counts as paid. ${REASON}`,
      );
    }
    expect(await admin.as.query(api.cashDisputes.open, {})).toEqual([]);
  });

  test("as waived: nothing booked, no receipt, nobody owes it; the notice says so in Nepali", async () => {
    const { t, customer, admin, bookingId, reportId } = await disputed();
    await admin.as.mutation(api.cashDisputes.settle, {
      reportId,
      outcome: "waived",
      reason: REASON,
    });
    expect((await paymentRow(t, bookingId))?.cash?.state).toBe("waived");
    expect(await table(t, "ledgerEntries")).toEqual([]);
    expect(await table(t, "receipts")).toEqual([]);
    expect(await customer.as.query(api.bills.get, { bookingId })).toMatchObject({
      payment: { cash: "waived" },
    });
    const last = (await noticesOf(t, customer.userId)).at(-1)!;
    expect(noticeText("ne-NP", last).body).toBe(
      `घर सेवाले विवाद टुङ्ग्यायो: रु. ८५० नगद मिनाहा गरियो, कसैले तिर्नु पर्दैन। ${REASON}`,
    );
  });

  test("is refused to everyone but admins, and changes nothing", async () => {
    const { t, customer, pro, otherPro, bookingId, reportId } = await disputed();
    const args = { reportId, outcome: "paid" as const, reason: REASON };
    for (const who of [customer.as, pro.as, otherPro.as]) {
      expect(await errorCode(who.mutation(api.cashDisputes.settle, args))).toBe("FORBIDDEN");
      expect(await errorCode(who.query(api.cashDisputes.open, {}))).toBe("FORBIDDEN");
    }
    expect(await errorCode(t.mutation(api.cashDisputes.settle, args))).toBe("UNAUTHENTICATED");
    expect(await errorCode(t.query(api.cashDisputes.open, {}))).toBe("UNAUTHENTICATED");
    expect((await paymentRow(t, bookingId))?.cash?.state).toBe("disputed");
  });

  test("needs a reason, and a report that is a cash dispute", async () => {
    const { t, customer, admin, bookingId, reportId } = await disputed();
    expect(
      await errorCode(
        admin.as.mutation(api.cashDisputes.settle, { reportId, outcome: "paid", reason: "ok" }),
      ),
    ).toBe("INVALID_INPUT");
    const otherReport = await customer.as.mutation(api.reports.create, {
      bookingId,
      target: "booking",
      category: "rude",
      text: "He shouted at my mother.",
    });
    expect(
      await errorCode(
        admin.as.mutation(api.cashDisputes.settle, {
          reportId: otherReport,
          outcome: "waived",
          reason: REASON,
        }),
      ),
    ).toBe("NOT_FOUND");
    expect((await paymentRow(t, bookingId))?.cash?.state).toBe("disputed");
  });

  test("a cash dispute's report is closed by settling it, not by a note alone", async () => {
    const { t, admin, reportId } = await disputed();
    expect(
      await errorCode(admin.as.mutation(api.adminReports.resolve, { reportId, note: REASON })),
    ).toBe("CASH_DISPUTE_OPEN");
    expect((await t.run((ctx) => ctx.db.get("reports", reportId)))?.status).toBe("open");
  });
});

describe("a customer's dispute and their other reports", () => {
  test("an open report on the booking does not stop a dispute, nor a dispute a report", async () => {
    const { customer, bookingId } = await disputed();
    await customer.as.mutation(api.reports.create, {
      bookingId,
      target: "booking",
      category: "poor_work",
      text: "The fan still wobbles badly.",
    });
    const mine = await customer.as.query(api.reports.mine, { bookingId });
    expect(mine?.map((r) => r.category).sort()).toEqual(["cash_dispute", "poor_work"]);
  });

  test("nobody files a cash dispute as a report of their own", async () => {
    const { t, customer, bookingId } = await disputed("in_progress");
    await expect(
      customer.as.mutation(api.reports.create, {
        bookingId,
        target: "booking",
        category: "cash_dispute" as "other",
        text: "I paid only Nrs. 500, not the full bill.",
      }),
    ).rejects.toThrow(/Validator/);
    expect(await t.run((ctx) => ctx.db.query("reports").collect())).toHaveLength(1);
  });
});
