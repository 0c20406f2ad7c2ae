import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { NO_SHOW } from "./rules/noShow";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  requestElectricianBooking,
  type TestConvex,
} from "./test.setup";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

afterEach(() => {
  vi.useRealTimers();
});

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  const admin = await insertAdmin(t);
  /** An accepted booking booked for `minutesAgo` minutes ago (its steps as far as `steps`). */
  const overdue = async (minutesAgo: number, steps: ("startTrip" | "arrive")[] = []) => {
    const bookingId = await requestElectricianBooking(t, customer.as, pro.professionalId);
    await pro.as.mutation(api.bookings.accept, { bookingId });
    for (const step of steps) await pro.as.mutation(api.bookings[step], { bookingId });
    await t.run((ctx) =>
      ctx.db.patch("bookings", bookingId, { scheduledFor: Date.now() - minutesAgo * MINUTE }),
    );
    return bookingId;
  };
  return { t, customer, otherCustomer, pro, admin, overdue };
}

const stored = (t: TestConvex, id: Id<"bookings">) =>
  t.run(async (ctx) => (await ctx.db.get("bookings", id))!);
const strikes = (t: TestConvex) => t.run((ctx) => ctx.db.query("noShowStrikes").collect());
const held = (t: TestConvex, id: Id<"professionals">) =>
  t.run(async (ctx) => (await ctx.db.get("professionals", id))!.noShowHold ?? null);

describe("a no-show", () => {
  test("the customer closes a booking the professional is 30 minutes late for; the professional gets a strike", async () => {
    const { t, customer, pro, overdue } = await setup();
    for (const steps of [[], ["startTrip"]] as const) {
      const id = await overdue(31, [...steps]);
      await customer.as.mutation(api.bookings.markNoShow, { bookingId: id });
      expect((await stored(t, id)).status).toBe("no_show");
      const seen = await pro.as.query(api.bookings.get, { bookingId: id });
      expect(seen?.status).toBe("no_show");
    }
    expect(await strikes(t)).toHaveLength(2);
    const notes = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", pro.userId))
        .collect(),
    );
    expect(notes.map((n) => n.kind)).toContain("booking.no_show");
  });

  test("is refused before the admin's wait is over, and follows the setting", async () => {
    const { t, customer, admin, overdue } = await setup();
    const id = await overdue(29);
    expect(await errorCode(customer.as.mutation(api.bookings.markNoShow, { bookingId: id }))).toBe(
      "NO_SHOW_TOO_EARLY",
    );
    expect((await stored(t, id)).status).toBe("accepted");
    await admin.as.mutation(api.admin.updateSettings, { noShowAfterMinutes: 20 });
    await customer.as.mutation(api.bookings.markNoShow, { bookingId: id });
    expect((await stored(t, id)).status).toBe("no_show");
  });

  test("is refused once the professional has arrived", async () => {
    const { t, customer, overdue } = await setup();
    const id = await overdue(60, ["startTrip", "arrive"]);
    expect(await errorCode(customer.as.mutation(api.bookings.markNoShow, { bookingId: id }))).toBe(
      "ILLEGAL_TRANSITION",
    );
    expect(await strikes(t)).toHaveLength(0);
  });

  test("only the booking's customer marks it", async () => {
    const { t, otherCustomer, pro, admin, overdue } = await setup();
    const id = await overdue(60);
    const call = { bookingId: id };
    expect(await errorCode(t.mutation(api.bookings.markNoShow, call))).toBe("UNAUTHENTICATED");
    expect(await errorCode(otherCustomer.as.mutation(api.bookings.markNoShow, call))).toBe(
      "NOT_FOUND",
    );
    for (const caller of [pro, admin])
      expect(await errorCode(caller.as.mutation(api.bookings.markNoShow, call))).toBe("FORBIDDEN");
    expect((await stored(t, id)).status).toBe("accepted");
    expect(await strikes(t)).toHaveLength(0);
  });
});

describe("strikes", () => {
  test(`${NO_SHOW.strikes} in 30 days make the professional not bookable until an admin clears the hold`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { t, customer, pro, admin, overdue } = await setup();
    for (let i = 0; i < NO_SHOW.strikes; i++) {
      expect(await held(t, pro.professionalId)).toBeNull();
      await customer.as.mutation(api.bookings.markNoShow, { bookingId: await overdue(45) });
      vi.setSystemTime(Date.now() + 9 * DAY);
    }
    expect(await held(t, pro.professionalId)).toBeTypeOf("number");
    expect(await errorCode(requestElectricianBooking(t, customer.as, pro.professionalId))).toBe(
      "PROFESSIONAL_ON_HOLD",
    );
    const record = await admin.as.query(api.noShows.forProfessional, {
      professionalId: pro.professionalId,
    });
    expect(record?.strikes).toHaveLength(NO_SHOW.strikes);
    expect(record?.heldSince).toBeTypeOf("number");
    // only an admin reviews
    for (const caller of [customer, pro])
      expect(
        await errorCode(
          caller.as.mutation(api.noShows.clearHold, { professionalId: pro.professionalId }),
        ),
      ).toBe("FORBIDDEN");
    await admin.as.mutation(api.noShows.clearHold, { professionalId: pro.professionalId });
    expect(await held(t, pro.professionalId)).toBeNull();
    await requestElectricianBooking(t, customer.as, pro.professionalId);
    // the cleared strikes no longer count
    const after = await admin.as.query(api.noShows.forProfessional, {
      professionalId: pro.professionalId,
    });
    expect(after?.strikes).toHaveLength(0);
  });

  test("spread over more than 30 days, they put no hold", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { t, customer, pro, overdue } = await setup();
    for (let i = 0; i < NO_SHOW.strikes; i++) {
      await customer.as.mutation(api.bookings.markNoShow, { bookingId: await overdue(45) });
      vi.setSystemTime(Date.now() + 16 * DAY);
    }
    expect(await strikes(t)).toHaveLength(NO_SHOW.strikes);
    expect(await held(t, pro.professionalId)).toBeNull();
  });

  test("the admin's view is the admin's alone", async () => {
    const { customer, pro } = await setup();
    for (const caller of [customer, pro])
      expect(
        await errorCode(
          caller.as.query(api.noShows.forProfessional, { professionalId: pro.professionalId }),
        ),
      ).toBe("FORBIDDEN");
  });

  test("the admin's grid shows each professional's strikes and hold; others may not read it", async () => {
    const { customer, pro, admin, overdue } = await setup();
    const grid = async () =>
      (
        await admin.as.query(api.admin.technicians, {
          paginationOpts: { numItems: 10, cursor: null },
        })
      ).page.find((p) => p._id === pro.professionalId)?.noShows;
    expect(await grid()).toEqual({ strikes: 0, held: false });
    for (let i = 0; i < NO_SHOW.strikes; i++)
      await customer.as.mutation(api.bookings.markNoShow, { bookingId: await overdue(45) });
    expect(await grid()).toEqual({ strikes: NO_SHOW.strikes, held: true });
    for (const caller of [customer, pro])
      expect(
        await errorCode(
          caller.as.query(api.admin.technicians, {
            paginationOpts: { numItems: 10, cursor: null },
          }),
        ),
      ).toBe("FORBIDDEN");
  });
});
