import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { RESCHEDULE } from "./rules/reschedule";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  requestElectricianBooking,
  type TestConvex,
} from "./test.setup";

const HOUR = 3_600_000;

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  const otherPro = await insertProfessional(t, { name: "Hari Rai" });
  /** A booking with `pro`, moved to the first free start time a day or more ahead. */
  const booking = async (status: "requested" | "accepted" = "accepted") => {
    const bookingId = await requestElectricianBooking(t, customer.as, pro.professionalId);
    if (status === "accepted") await pro.as.mutation(api.bookings.accept, { bookingId });
    const { slots } = await customer.as.query(api.reschedules.freeSlots, {
      bookingId,
      now: Date.now() + 24 * HOUR,
    });
    await t.run((ctx) => ctx.db.patch("bookings", bookingId, { scheduledFor: slots[0] }));
    return bookingId;
  };
  /** The free start times the customer is offered for `bookingId`. */
  const free = async (bookingId: Id<"bookings">) =>
    (await customer.as.query(api.reschedules.freeSlots, { bookingId, now: Date.now() })).slots;
  return { t, customer, otherCustomer, pro, otherPro, booking, free };
}

const stored = (t: TestConvex, id: Id<"bookings">) =>
  t.run(async (ctx) => (await ctx.db.get("bookings", id))!);
const kindsFor = (t: TestConvex, userId: Id<"users">) =>
  t.run(async (ctx) =>
    (
      await ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", userId))
        .collect()
    ).map((n) => n.kind),
  );

describe("moving a booking to another time", () => {
  test("the customer proposes a free time; the professional accepts and the booking moves, kept in its history", async () => {
    const { t, customer, pro, booking, free } = await setup();
    const id = await booking();
    const before = (await stored(t, id)).scheduledFor;
    const slots = await free(id);
    expect(slots).not.toContain(before);
    const to = slots[5];
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });

    const seen = await pro.as.query(api.bookings.get, { bookingId: id });
    expect(seen?.reschedule.pending).toMatchObject({ from: before, to });
    expect(await kindsFor(t, pro.userId)).toContain("reschedule.proposed");

    await pro.as.mutation(api.reschedules.accept, { bookingId: id });
    expect((await stored(t, id)).scheduledFor).toBe(to);
    const after = await customer.as.query(api.bookings.get, { bookingId: id });
    expect(after?.reschedule.pending).toBeNull();
    expect(after?.reschedule.history).toEqual([
      expect.objectContaining({ from: before, to, status: "accepted" }),
    ]);
    expect(after?.reschedule.left).toBe(RESCHEDULE.maxPerBooking - 1);
    expect(await kindsFor(t, customer.userId)).toContain("reschedule.accepted");
  });

  test("a request not yet answered may move too", async () => {
    const { t, customer, pro, booking, free } = await setup();
    const id = await booking("requested");
    const to = (await free(id))[2];
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    await pro.as.mutation(api.reschedules.accept, { bookingId: id });
    expect(await stored(t, id)).toMatchObject({ scheduledFor: to, status: "requested" });
  });

  test("the professional declines: the booking keeps its time and the customer is told why", async () => {
    const { t, customer, pro, booking, free } = await setup();
    const id = await booking();
    const before = (await stored(t, id)).scheduledFor;
    const to = (await free(id))[3];
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    await pro.as.mutation(api.reschedules.decline, { bookingId: id, reason: "Away that day" });
    expect((await stored(t, id)).scheduledFor).toBe(before);
    const after = await customer.as.query(api.bookings.get, { bookingId: id });
    expect(after?.reschedule.history).toEqual([
      expect.objectContaining({ to, status: "declined", reason: "Away that day" }),
    ]);
    expect(await kindsFor(t, customer.userId)).toContain("reschedule.declined");
  });

  test("a time the professional is not free at, or the booked time itself, is refused and nothing changes", async () => {
    const { t, customer, booking, free } = await setup();
    const id = await booking();
    const before = (await stored(t, id)).scheduledFor;
    const slots = await free(id);
    // 17 minutes past a free half hour is not a start time offered
    expect(
      await errorCode(
        customer.as.mutation(api.reschedules.propose, {
          bookingId: id,
          to: slots[0] + 17 * 60_000,
        }),
      ),
    ).toBe("SLOT_TAKEN");
    expect(
      await errorCode(customer.as.mutation(api.reschedules.propose, { bookingId: id, to: before })),
    ).toBe("INVALID_INPUT");
    // in the past
    expect(
      await errorCode(
        customer.as.mutation(api.reschedules.propose, { bookingId: id, to: Date.now() - HOUR }),
      ),
    ).toBe("SLOT_TAKEN");
    expect((await stored(t, id)).scheduledFor).toBe(before);
    expect(await t.run((ctx) => ctx.db.query("reschedules").collect())).toEqual([]);
  });

  test("another customer's accepted job at the proposed time refuses it", async () => {
    const { t, customer, otherCustomer, pro, booking, free } = await setup();
    const id = await booking();
    const to = (await free(id))[4];
    const theirs = await requestElectricianBooking(t, otherCustomer.as, pro.professionalId);
    await pro.as.mutation(api.bookings.accept, { bookingId: theirs });
    await t.run((ctx) => ctx.db.patch("bookings", theirs, { scheduledFor: to }));
    expect(await free(id)).not.toContain(to);
    expect(
      await errorCode(customer.as.mutation(api.reschedules.propose, { bookingId: id, to })),
    ).toBe("SLOT_TAKEN");
  });

  test("a time taken after it was proposed is refused at acceptance, and the booking stays", async () => {
    const { t, customer, otherCustomer, pro, booking, free } = await setup();
    const id = await booking();
    const before = (await stored(t, id)).scheduledFor;
    const to = (await free(id))[4];
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    const theirs = await requestElectricianBooking(t, otherCustomer.as, pro.professionalId);
    await pro.as.mutation(api.bookings.accept, { bookingId: theirs });
    await t.run((ctx) => ctx.db.patch("bookings", theirs, { scheduledFor: to }));
    expect(await errorCode(pro.as.mutation(api.reschedules.accept, { bookingId: id }))).toBe(
      "SLOT_TAKEN",
    );
    expect((await stored(t, id)).scheduledFor).toBe(before);
    // declining it still works
    await pro.as.mutation(api.reschedules.decline, { bookingId: id });
  });

  test("one proposal waits at a time, and a booking moves at most the rule's number of times", async () => {
    const { customer, pro, booking, free } = await setup();
    const id = await booking();
    for (let i = 0; i < RESCHEDULE.maxPerBooking; i++) {
      const slots = await free(id);
      await customer.as.mutation(api.reschedules.propose, { bookingId: id, to: slots[i + 1] });
      expect(
        await errorCode(
          customer.as.mutation(api.reschedules.propose, { bookingId: id, to: slots[i + 2] }),
        ),
      ).toBe("RESCHEDULE_PENDING");
      await pro.as.mutation(api.reschedules.decline, { bookingId: id });
    }
    const slots = await free(id);
    expect(
      await errorCode(
        customer.as.mutation(api.reschedules.propose, { bookingId: id, to: slots[1] }),
      ),
    ).toBe("RESCHEDULE_LIMIT");
  });

  test("closes the rule's hours before the booked time, and once the professional is on the way", async () => {
    const { t, customer, pro, booking, free } = await setup();
    const id = await booking();
    const later = await booking();
    const to = (await free(id))[1];
    await t.run((ctx) =>
      ctx.db.patch("bookings", id, {
        scheduledFor: Date.now() + RESCHEDULE.closesBeforeMs - 60_000,
      }),
    );
    expect(
      await errorCode(customer.as.mutation(api.reschedules.propose, { bookingId: id, to })),
    ).toBe("RESCHEDULE_CLOSED");

    const when = (await free(later))[1];
    await customer.as.mutation(api.reschedules.propose, { bookingId: later, to: when });
    await t.run((ctx) => ctx.db.patch("bookings", later, { status: "en_route" }));
    // the proposal waiting then can no longer be answered
    expect(await errorCode(pro.as.mutation(api.reschedules.accept, { bookingId: later }))).toBe(
      "RESCHEDULE_CLOSED",
    );
    expect((await pro.as.query(api.bookings.get, { bookingId: later }))?.reschedule.pending).toBe(
      null,
    );
  });

  test("only the booking's customer proposes and only its professional answers", async () => {
    const { t, customer, otherCustomer, pro, otherPro, booking, free } = await setup();
    const id = await booking();
    const to = (await free(id))[1];
    expect(
      await errorCode(otherCustomer.as.mutation(api.reschedules.propose, { bookingId: id, to })),
    ).toBe("NOT_FOUND");
    expect(
      await errorCode(
        otherCustomer.as.query(api.reschedules.freeSlots, { bookingId: id, now: Date.now() }),
      ),
    ).toBe("NOT_FOUND");
    expect(await errorCode(pro.as.mutation(api.reschedules.propose, { bookingId: id, to }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(t.mutation(api.reschedules.propose, { bookingId: id, to }))).toBe(
      "UNAUTHENTICATED",
    );
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    expect(await errorCode(otherPro.as.mutation(api.reschedules.accept, { bookingId: id }))).toBe(
      "NOT_FOUND",
    );
    expect(await errorCode(otherPro.as.mutation(api.reschedules.decline, { bookingId: id }))).toBe(
      "NOT_FOUND",
    );
    expect(await errorCode(customer.as.mutation(api.reschedules.accept, { bookingId: id }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(t.mutation(api.reschedules.decline, { bookingId: id }))).toBe(
      "UNAUTHENTICATED",
    );
    expect((await stored(t, id)).scheduledFor).not.toBe(to);
  });
});

describe("a proposal nobody answered", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("lapses once the booking is too close to move: both sides and the admin see it lapsed, the customer is told", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, booking, free } = await setup();
    const admin = await insertAdmin(t);
    const id = await booking();
    const scheduledFor = (await stored(t, id)).scheduledFor;
    // a later time than the booked one: it lapses when moving closes, before its own time
    const to = (await free(id)).find((s) => s > scheduledFor)!;
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    const waiting = await customer.as.query(api.bookings.get, { bookingId: id });
    const lapsesAt = scheduledFor - RESCHEDULE.closesBeforeMs;
    expect(waiting?.reschedule.pending).toMatchObject({ to, lapsesAt });

    vi.advanceTimersByTime(lapsesAt - Date.now() - 60_000);
    await t.finishInProgressScheduledFunctions();
    expect((await pro.as.query(api.bookings.get, { bookingId: id }))?.reschedule.pending).not.toBe(
      null,
    );
    vi.advanceTimersByTime(60_000);
    await t.finishInProgressScheduledFunctions();
    for (const as of [customer.as, pro.as]) {
      const seen = await as.query(api.bookings.get, { bookingId: id });
      expect(seen?.reschedule.pending).toBeNull();
      expect(seen?.reschedule.history).toEqual([
        expect.objectContaining({ from: scheduledFor, to, status: "lapsed" }),
      ]);
    }
    expect(
      (await admin.as.query(api.adminBookings.get, { bookingId: id }))?.reschedule.history,
    ).toEqual([expect.objectContaining({ to, status: "lapsed" })]);
    expect(await kindsFor(t, customer.userId)).toContain("reschedule.lapsed");
    expect((await stored(t, id)).scheduledFor).toBe(scheduledFor);
    expect(await errorCode(pro.as.mutation(api.reschedules.accept, { bookingId: id }))).toBe(
      "RESCHEDULE_CLOSED",
    );
  });

  test("an earlier time lapses when it comes, and cannot be accepted after", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, booking, free } = await setup();
    const id = await booking();
    const to = (await free(id))[0];
    // the booking two days after that free time, so moving it stays open past `to`
    const scheduledFor = to + 48 * HOUR;
    await t.run((ctx) => ctx.db.patch("bookings", id, { scheduledFor }));
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    const lapseIn = to - Date.now();
    // the professional answers a moment too late, before the scheduled lapse has run
    vi.setSystemTime(to);
    expect(await errorCode(pro.as.mutation(api.reschedules.accept, { bookingId: id }))).toBe(
      "RESCHEDULE_LAPSED",
    );
    // (setSystemTime leaves the timers' own delays as they were)
    vi.advanceTimersByTime(lapseIn + 1_000);
    await t.finishInProgressScheduledFunctions();
    const seen = await customer.as.query(api.bookings.get, { bookingId: id });
    expect(seen?.reschedule.history).toEqual([expect.objectContaining({ to, status: "lapsed" })]);
    expect((await stored(t, id)).scheduledFor).toBe(scheduledFor);
  });

  test("one the trip overtook shows as lapsed at once, and lapses quietly", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, booking, free } = await setup();
    const id = await booking();
    const to = (await free(id))[1];
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    await t.run((ctx) => ctx.db.patch("bookings", id, { status: "en_route" }));
    const seen = await pro.as.query(api.bookings.get, { bookingId: id });
    expect(seen?.reschedule.history).toEqual([expect.objectContaining({ to, status: "lapsed" })]);
    vi.advanceTimersByTime(to - Date.now() + 1_000);
    await t.finishInProgressScheduledFunctions();
    expect(await kindsFor(t, customer.userId)).not.toContain("reschedule.lapsed");
  });
  test("one a cancellation overtook shows as lapsed at once, cannot be answered, and lapses quietly", async () => {
    vi.useFakeTimers();
    const { t, customer, pro, booking, free } = await setup();
    const id = await booking();
    const to = (await free(id))[1];
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    await customer.as.mutation(api.bookings.cancel, { bookingId: id, reason: "Plans changed" });
    const seen = await pro.as.query(api.bookings.get, { bookingId: id });
    expect(seen?.reschedule.pending).toBeNull();
    expect(seen?.reschedule.history).toEqual([expect.objectContaining({ to, status: "lapsed" })]);
    expect(await errorCode(pro.as.mutation(api.reschedules.accept, { bookingId: id }))).toBe(
      "RESCHEDULE_CLOSED",
    );
    expect((await stored(t, id)).scheduledFor).not.toBe(to);
    vi.advanceTimersByTime(to - Date.now() + 1_000);
    await t.finishInProgressScheduledFunctions();
    expect(await kindsFor(t, customer.userId)).not.toContain("reschedule.lapsed");
  });
});

describe("withdrawing a proposal", () => {
  test("the customer withdraws the waiting time: the professional is told and can no longer answer; it counts toward the limit", async () => {
    const { t, customer, pro, booking, free } = await setup();
    const admin = await insertAdmin(t);
    const id = await booking();
    const before = (await stored(t, id)).scheduledFor;
    const to = (await free(id))[2];
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
    await customer.as.mutation(api.reschedules.withdraw, { bookingId: id });
    expect(await kindsFor(t, pro.userId)).toContain("reschedule.withdrawn");
    expect(await errorCode(pro.as.mutation(api.reschedules.accept, { bookingId: id }))).toBe(
      "RESCHEDULE_CLOSED",
    );
    const seen = await pro.as.query(api.bookings.get, { bookingId: id });
    expect(seen?.reschedule.pending).toBeNull();
    expect(seen?.reschedule.history).toEqual([
      expect.objectContaining({ from: before, to, status: "withdrawn" }),
    ]);
    expect(seen?.reschedule.left).toBe(RESCHEDULE.maxPerBooking - 1);
    expect(
      (await admin.as.query(api.adminBookings.get, { bookingId: id }))?.reschedule.history,
    ).toEqual([expect.objectContaining({ status: "withdrawn" })]);
    expect((await stored(t, id)).scheduledFor).toBe(before);
    // nothing left to withdraw; a new proposal may follow
    expect(await errorCode(customer.as.mutation(api.reschedules.withdraw, { bookingId: id }))).toBe(
      "RESCHEDULE_CLOSED",
    );
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to });
  });

  test("only the booking's customer withdraws", async () => {
    const { t, customer, otherCustomer, pro, booking, free } = await setup();
    const id = await booking();
    await customer.as.mutation(api.reschedules.propose, { bookingId: id, to: (await free(id))[1] });
    expect(
      await errorCode(otherCustomer.as.mutation(api.reschedules.withdraw, { bookingId: id })),
    ).toBe("NOT_FOUND");
    expect(await errorCode(pro.as.mutation(api.reschedules.withdraw, { bookingId: id }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(t.mutation(api.reschedules.withdraw, { bookingId: id }))).toBe(
      "UNAUTHENTICATED",
    );
    expect((await pro.as.query(api.bookings.get, { bookingId: id }))?.reschedule.pending).not.toBe(
      null,
    );
  });
});
