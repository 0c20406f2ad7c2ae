import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { recordPayment } from "./model/ledger";
import { LATE_CANCEL_FEE_NRS } from "./rules/cancellation";
import { noticeText } from "./rules/notificationText";
import {
  billedBooking,
  bookingRow,
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  ledgerSums,
  newTest,
  noticesOf,
  type TestConvex,
} from "./test.setup";
import type { BookingStatus } from "./validators";

const reason = "I found someone closer, sorry.";
/** The fee when no admin has set it, in paisa. */
const FEE = LATE_CANCEL_FEE_NRS.default * 100;

async function booked(status: BookingStatus) {
  const t = newTest();
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  const bookingId = await billedBooking(t, customer.userId, pro, status);
  return { t, customer, otherCustomer, pro, bookingId };
}

const statusOf = async (t: TestConvex, bookingId: Id<"bookings">) =>
  (await t.run((ctx) => ctx.db.get("bookings", bookingId)))!.status;

describe("a customer cancelling once the professional is on the way", () => {
  test("is told the fee first (CANCEL_FEE with the amount) and nothing changes", async () => {
    const { t, customer, bookingId } = await booked("en_route");
    const call = customer.as.mutation(api.bookings.cancel, { bookingId, reason });
    await expect(call).rejects.toMatchObject({
      data: expect.objectContaining({ code: "CANCEL_FEE", feePaisa: FEE }),
    });
    // a fee other than the one the server counts is refused too
    expect(
      await errorCode(
        customer.as.mutation(api.bookings.cancel, { bookingId, reason, seenFeePaisa: 1 }),
      ),
    ).toBe("CANCEL_FEE");
    expect(await statusOf(t, bookingId)).toBe("en_route");
  });

  test("accepting the fee cancels: the bill is the fee alone, the professional is told", async () => {
    const { t, customer, pro, bookingId } = await booked("arrived");
    await customer.as.mutation(api.bookings.cancel, { bookingId, reason, seenFeePaisa: FEE });
    expect(await statusOf(t, bookingId)).toBe("cancelled");
    const bill = await customer.as.query(api.bills.get, { bookingId });
    expect(bill).toMatchObject({ totalPaisa: FEE, payment: null, refund: null });
    expect(bill!.lines.filter((l) => l.kind === "fee")).toEqual([
      expect.objectContaining({ amountPaisa: FEE, status: "approved" }),
    ]);
    expect(await pro.as.query(api.bills.get, { bookingId })).toMatchObject({ totalPaisa: FEE });
    const notice = (await noticesOf(t, pro.userId)).find((n) => n.kind === "booking.cancelled")!;
    expect(noticeText("en", notice).body).toContain(reason);
  });

  test("the fee, once paid, is split like a job: commission and the professional's earning", async () => {
    const { t, customer, bookingId } = await booked("en_route");
    await customer.as.mutation(api.bookings.cancel, { bookingId, reason, seenFeePaisa: FEE });
    await t.run((ctx) =>
      recordPayment(ctx, { bookingId, method: "esewa", amountPaisa: FEE, reference: "fee-1" }),
    );
    const { unbalanced, byAccount } = await ledgerSums(t);
    expect(unbalanced).toEqual([]);
    // 10% commission
    expect(byAccount).toEqual({
      platform_funds: FEE,
      customer: 0,
      commission: -FEE / 10,
      professional_earning: -(FEE - FEE / 10),
    });
    const kinds = await t.run(async (ctx) =>
      (await ctx.db.query("ledgerEntries").collect()).map((e) => e.kind),
    );
    expect(new Set(kinds)).toEqual(new Set(["payment", "fee"]));
    // a paid fee is never refunded, and the rest of the bill is not payable
    expect(await t.run((ctx) => ctx.db.query("refunds").collect())).toEqual([]);
  });

  test("is never charged more than the booking costs", async () => {
    const { t, customer, pro } = await booked("accepted");
    const bookingId = await t.run(async (ctx) => {
      const id = await ctx.db.insert(
        "bookings",
        bookingRow(customer.userId, pro, "en_route", { price: 150 }),
      );
      await ctx.db.insert("billLines", {
        bookingId: id,
        kind: "service",
        label: "Switch Repair",
        amountPaisa: 15_000,
        status: "approved",
      });
      return id;
    });
    await expect(
      customer.as.mutation(api.bookings.cancel, { bookingId, reason }),
    ).rejects.toMatchObject({ data: expect.objectContaining({ feePaisa: 15_000 }) });
  });

  test("before the professional sets off costs nothing and bills nothing", async () => {
    const { t, customer, bookingId } = await booked("accepted");
    await customer.as.mutation(api.bookings.cancel, { bookingId, reason });
    expect(await statusOf(t, bookingId)).toBe("cancelled");
    expect(await customer.as.query(api.bills.get, { bookingId })).toMatchObject({
      totalPaisa: 85_000,
    });
    const lines = await t.run((ctx) => ctx.db.query("billLines").collect());
    expect(lines.some((l) => l.kind === "fee")).toBe(false);
  });

  test("is refused to another customer, and once the job has started", async () => {
    const { t, customer, otherCustomer, pro, bookingId } = await booked("en_route");
    const args = { bookingId, reason, seenFeePaisa: FEE };
    expect(await errorCode(otherCustomer.as.mutation(api.bookings.cancel, args))).toBe("NOT_FOUND");
    expect(await errorCode(t.mutation(api.bookings.cancel, args))).toBe("UNAUTHENTICATED");
    expect(await statusOf(t, bookingId)).toBe("en_route");
    const started = await billedBooking(t, customer.userId, pro, "in_progress");
    expect(
      await errorCode(customer.as.mutation(api.bookings.cancel, { ...args, bookingId: started })),
    ).toBe("ILLEGAL_TRANSITION");
  });
});

describe("the late-cancellation fee as an admin setting", () => {
  test("an admin's fee is the one charged; 0 charges none", async () => {
    const { t, customer, pro } = await booked("accepted");
    const admin = await insertAdmin(t);
    await admin.as.mutation(api.admin.updateSettings, { lateCancelFeeNrs: 350 });
    expect(await t.query(api.settings.get, {})).toMatchObject({ lateCancelFeeNrs: 350 });
    const first = await billedBooking(t, customer.userId, pro, "en_route");
    await expect(
      customer.as.mutation(api.bookings.cancel, { bookingId: first, reason }),
    ).rejects.toMatchObject({ data: expect.objectContaining({ feePaisa: 35_000 }) });
    await customer.as.mutation(api.bookings.cancel, {
      bookingId: first,
      reason,
      seenFeePaisa: 35_000,
    });
    expect(await customer.as.query(api.bills.get, { bookingId: first })).toMatchObject({
      totalPaisa: 35_000,
    });

    await admin.as.mutation(api.admin.updateSettings, { lateCancelFeeNrs: 0 });
    const second = await billedBooking(t, customer.userId, pro, "arrived");
    await customer.as.mutation(api.bookings.cancel, { bookingId: second, reason });
    expect(await statusOf(t, second)).toBe("cancelled");
    const lines = await t.run((ctx) => ctx.db.query("billLines").collect());
    expect(lines.filter((l) => l.kind === "fee").map((l) => l.bookingId)).toEqual([first]);
  });

  test("is refused out of bounds, fractional, or to anyone but an admin", async () => {
    const { t, customer, pro } = await booked("accepted");
    const admin = await insertAdmin(t);
    for (const lateCancelFeeNrs of [-1, 12.5, LATE_CANCEL_FEE_NRS.max + 1])
      expect(
        await errorCode(admin.as.mutation(api.admin.updateSettings, { lateCancelFeeNrs })),
      ).toBe("INVALID_INPUT");
    for (const caller of [customer.as, pro.as])
      expect(
        await errorCode(caller.mutation(api.admin.updateSettings, { lateCancelFeeNrs: 1 })),
      ).toBe("FORBIDDEN");
    expect(await t.query(api.settings.get, {})).toMatchObject({
      lateCancelFeeNrs: LATE_CANCEL_FEE_NRS.default,
    });
  });
});

describe("a professional calling a job off once on the way", () => {
  test("gets a strike, and the customer owes nothing: no fee is billed", async () => {
    const { t, customer, pro, bookingId } = await booked("arrived");
    await pro.as.mutation(api.bookings.cancel, { bookingId, reason });
    expect(await statusOf(t, bookingId)).toBe("cancelled");
    const strikes = await t.run((ctx) => ctx.db.query("noShowStrikes").collect());
    expect(strikes).toEqual([expect.objectContaining({ bookingId, kind: "late_cancel" })]);
    const lines = await t.run((ctx) => ctx.db.query("billLines").collect());
    expect(lines.some((l) => l.kind === "fee")).toBe(false);
    expect(await customer.as.query(api.bills.get, { bookingId })).toMatchObject({
      payment: null,
      refund: null,
    });
    expect((await ledgerSums(t)).transactions).toBe(0);
    const strikesSeen = await insertAdmin(t).then((admin) =>
      admin.as.query(api.noShows.forProfessional, { professionalId: pro.professionalId }),
    );
    expect(strikesSeen!.strikes).toEqual([expect.objectContaining({ kind: "late_cancel" })]);
  });

  test("before setting off costs no strike; three late ones put them on hold", async () => {
    const { t, customer, pro } = await booked("accepted");
    const early = await billedBooking(t, customer.userId, pro, "accepted");
    await pro.as.mutation(api.bookings.cancel, { bookingId: early, reason });
    expect(await t.run((ctx) => ctx.db.query("noShowStrikes").collect())).toEqual([]);
    for (let i = 0; i < 3; i++) {
      const bookingId = await billedBooking(t, customer.userId, pro, "en_route");
      await pro.as.mutation(api.bookings.cancel, { bookingId, reason });
    }
    const held = await t.run((ctx) => ctx.db.get("professionals", pro.professionalId));
    expect(held!.noShowHold).toBeTypeOf("number");
  });
});
