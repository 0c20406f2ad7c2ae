import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { RESCHEDULE } from "./rules/reschedule";
import {
  errorCode,
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
