import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { recordPayment } from "./model/ledger";
import { LATE_CANCEL_FEE_PAISA as FEE } from "./rules/cancellation";
import { noticeText } from "./rules/notificationText";
import {
  billedBooking,
  bookingRow,
  errorCode,
  insertCustomer,
  insertProfessional,
  ledgerSums,
  newTest,
  noticesOf,
  type TestConvex,
} from "./test.setup";
import type { BookingStatus } from "./validators";

const reason = "I found someone closer, sorry.";

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
