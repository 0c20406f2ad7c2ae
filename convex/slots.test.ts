import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { kathmanduDayStart } from "./rules/schedule";
import {
  errorCode,
  errorMessage,
  everyKindOfCaller,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
} from "./test.setup";

const HOUR = 3_600_000;
const HOURS = { days: [0, 1, 2, 3, 4, 5, 6], start: 9 * 60, end: 17 * 60 };

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const other = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  await pro.as.mutation(api.professionals.setWorkingHours, { hours: HOURS });
  const service = await t.run(
    async (ctx) =>
      (await ctx.db
        .query("services")
        .withIndex("by_category_and_name", (q) => q.eq("category", "electrical"))
        .first())!,
  );
  // tomorrow 00:00 in Kathmandu, so every slot of the day is ahead
  const now = kathmanduDayStart(Date.now()) + 24 * HOUR;
  const slotsOf = (who = customer, serviceIds: Id<"services">[] = [service._id]) =>
    who.as.query(api.bookings.freeSlots, {
      professionalId: pro.professionalId,
      serviceIds,
      now,
    });
  const book = (who: typeof customer, at: number) =>
    who.as.mutation(api.bookings.create, {
      professionalId: pro.professionalId,
      serviceIds: [service._id],
      address: "House 12, Baneshwor",
      city: "kathmandu",
      scheduledFor: at,
    });
  return { t, customer, other, pro, service, now, slotsOf, book };
}

describe("free slots (bookings:freeSlots)", () => {
  test("a customer sees the free half hours in the working hours, for the services' length", async () => {
    const { now, slotsOf } = await setup();
    const { jobMinutes, slots, refusal } = await slotsOf();
    expect(refusal).toBeNull();
    expect(jobMinutes).toBe(120);
    // 09:00 … 15:00 (a two-hour job ends by 17:00) on each of 7 days
    const firstDay = slots.filter((s) => s < now + 24 * HOUR);
    expect(firstDay[0]).toBe(now + 9 * HOUR);
    expect(firstDay.at(-1)).toBe(now + 15 * HOUR);
    expect(new Set(slots.map(kathmanduDayStart)).size).toBe(7);
  });

  test("another customer's booking takes its time away live; the customer's own does not", async () => {
    const { customer, other, now, slotsOf, book } = await setup();
    await book(other, now + 10 * HOUR);
    const { slots } = await slotsOf();
    // a two-hour job at 09:00 or 11:00 would overlap 10:00-12:00
    for (const h of [9, 9.5, 10, 10.5, 11, 11.5]) expect(slots).not.toContain(now + h * HOUR);
    expect(slots).toContain(now + 12 * HOUR);
    expect((await slotsOf(other)).slots).toContain(now + 10 * HOUR);
    await book(customer, now + 13 * HOUR);
    expect((await slotsOf(other)).slots).not.toContain(now + 13 * HOUR);
  });

  test("booking a time just taken is refused with the next free times", async () => {
    const { customer, other, now, book } = await setup();
    await book(other, now + 10 * HOUR);
    const refused = book(customer, now + 11 * HOUR);
    expect(await errorMessage(refused)).toBe(
      "This time was just taken: the professional has another job then. Please choose another time.",
    );
    const data = await book(customer, now + 11 * HOUR).then(
      () => expect.unreachable(),
      (e: { data: { next: number[] } }) => e.data,
    );
    expect(data.next).toHaveLength(3);
  });

  test("refused: outside the working hours, a job running past them, a past time", async () => {
    const { customer, now, book } = await setup();
    expect(await errorCode(book(customer, now + 8 * HOUR))).toBe("OUTSIDE_WORKING_HOURS");
    expect(await errorMessage(book(customer, now + 16 * HOUR))).toBe(
      "This job takes 2 h and would end after 17:00, when Ram Thapa stops work. Please choose an earlier time.",
    );
    expect(await errorCode(book(customer, Date.now() - HOUR))).toBe("SLOT_IN_PAST");
    await book(customer, now + 15 * HOUR);
  });

  test("an unverified or unavailable professional offers no slots; a suspended one is not found", async () => {
    const { t, pro, slotsOf } = await setup();
    await t.run((ctx) => ctx.db.patch("professionals", pro.professionalId, { available: false }));
    expect(await slotsOf()).toMatchObject({ slots: [], refusal: "PROFESSIONAL_UNAVAILABLE" });
    await t.run((ctx) =>
      ctx.db.patch("professionals", pro.professionalId, {
        available: true,
        verification: { status: "unverified" },
      }),
    );
    expect(await slotsOf()).toMatchObject({ slots: [], refusal: "PROFESSIONAL_UNVERIFIED" });
    const admin = await insertAdmin(t);
    await t.run((ctx) =>
      ctx.db.patch("users", pro.userId, { suspended: { at: 1, by: admin.userId, reason: "x" } }),
    );
    expect(await errorCode(slotsOf())).toBe("NOT_FOUND");
  });

  test("only customers ask; visitors sign in first", async () => {
    const { t, pro, service, now } = await setup();
    const callers = await everyKindOfCaller(t);
    const args = { professionalId: pro.professionalId, serviceIds: [service._id], now };
    expect(await errorCode(callers.visitor.query(api.bookings.freeSlots, args))).toBe(
      "UNAUTHENTICATED",
    );
    for (const who of [callers.professional, callers.admin])
      expect(await errorCode(who.query(api.bookings.freeSlots, args))).toBe("FORBIDDEN");
    expect(
      await errorCode(callers.customer.query(api.bookings.freeSlots, { ...args, now: NaN })),
    ).toBe("INVALID_INPUT");
  });
});

describe("job lengths (catalog:setJobMinutes)", () => {
  test("an admin sets a service's length; slots and bookings follow; null returns to the category's", async () => {
    const { t, service, slotsOf } = await setup();
    const admin = await insertAdmin(t);
    await admin.as.mutation(api.catalog.setJobMinutes, { serviceId: service._id, minutes: 60 });
    expect((await slotsOf()).jobMinutes).toBe(60);
    expect((await slotsOf(undefined, [])).jobMinutes).toBe(120);
    expect(
      await errorMessage(
        admin.as.mutation(api.catalog.setJobMinutes, { serviceId: service._id, minutes: 45 }),
      ),
    ).toBe("Use whole half hours.");
    await admin.as.mutation(api.catalog.setJobMinutes, { serviceId: service._id, minutes: null });
    expect((await slotsOf()).jobMinutes).toBe(120);
  });

  test("customers, professionals and visitors cannot set lengths", async () => {
    const { t, service } = await setup();
    const callers = await everyKindOfCaller(t);
    const args = { serviceId: service._id, minutes: 60 };
    expect(await errorCode(callers.visitor.mutation(api.catalog.setJobMinutes, args))).toBe(
      "UNAUTHENTICATED",
    );
    for (const who of [callers.customer, callers.professional])
      expect(await errorCode(who.mutation(api.catalog.setJobMinutes, args))).toBe("FORBIDDEN");
  });
});
