import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import { issueStartCode } from "./model/startCodes";
import { START_CODE } from "./rules/startCode";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  requestElectricianBooking,
  type TestConvex,
} from "./test.setup";

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { name: "Ram Thapa" });
  const otherPro = await insertProfessional(t, { name: "Hari Rai" });
  const admin = await insertAdmin(t);
  /** A booking whose professional accepted and set off (and, unless told, arrived). */
  const booking = async ({ arrive = true } = {}) => {
    const bookingId = await requestElectricianBooking(t, customer.as, pro.professionalId);
    const steps = [api.bookings.accept, api.bookings.startTrip];
    for (const step of arrive ? [...steps, api.bookings.arrive] : steps)
      await pro.as.mutation(step, { bookingId });
    return bookingId;
  };
  const codeOf = async (bookingId: Id<"bookings">) =>
    (await customer.as.query(api.bookings.get, { bookingId }))!.start!.code!;
  return { t, customer, otherCustomer, pro, otherPro, admin, booking, codeOf };
}

const stored = (t: TestConvex, id: Id<"bookings">) =>
  t.run(async (ctx) => (await ctx.db.get("bookings", id))!);
const codeRows = (t: TestConvex, id: Id<"bookings">) =>
  t.run((ctx) =>
    ctx.db
      .query("startCodes")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", id))
      .collect(),
  );
/** A code of the right shape that is not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, "0");

describe("the start code", () => {
  test("appears when the professional arrives, to the booking's customer only", async () => {
    const { t, customer, otherCustomer, pro, admin, booking } = await setup();
    const id = await booking();
    expect((await stored(t, id)).status).toBe("arrived");
    const seen = await customer.as.query(api.bookings.get, { bookingId: id });
    expect(seen?.start).toEqual({
      code: expect.stringMatching(/^\d{4}$/),
      triesLeft: 5,
      spent: false,
    });
    // the professional and the admin see the tries, never the code; another customer not even the booking
    for (const caller of [pro, admin])
      expect((await caller.as.query(api.bookings.get, { bookingId: id }))?.start).toEqual({
        code: null,
        triesLeft: 5,
        spent: false,
      });
    expect(await otherCustomer.as.query(api.bookings.get, { bookingId: id })).toBeNull();
    const listed = await pro.as.query(api.bookings.forProfessional, {
      paginationOpts: { numItems: 5, cursor: null },
    });
    expect(listed.page[0]!.start?.code).toBeNull();
  });

  test("is not there before the professional arrives", async () => {
    const { customer, booking } = await setup();
    const id = await booking({ arrive: false });
    expect((await customer.as.query(api.bookings.get, { bookingId: id }))?.start).toBeNull();
  });

  test("typed by the professional starts the job, tells the customer and is then gone", async () => {
    const { t, customer, pro, booking, codeOf } = await setup();
    const id = await booking();
    const code = await codeOf(id);
    expect(await pro.as.mutation(api.bookings.start, { bookingId: id, code })).toEqual({
      started: true,
    });
    expect((await stored(t, id)).status).toBe("in_progress");
    expect(await codeRows(t, id)).toEqual([]);
    expect((await customer.as.query(api.bookings.get, { bookingId: id }))?.start).toBeNull();
    const notes = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", customer.userId))
        .collect(),
    );
    expect(notes.map((n) => n.kind)).toContain("booking.arrived");
    expect(notes.map((n) => n.kind)).toContain("booking.in_progress");
    // the same call again is a retry of a start that went through
    expect(await pro.as.mutation(api.bookings.start, { bookingId: id, code })).toEqual({
      started: true,
    });
  });

  test("works only on its own booking: another booking's code is a wrong code", async () => {
    const { t, pro, booking, codeOf } = await setup();
    const first = await booking();
    // the first job moved earlier, so that the professional is free for the second
    await t.run((ctx) =>
      ctx.db.patch("bookings", first, { scheduledFor: Date.now() - 5 * 3_600_000 }),
    );
    const second = await booking();
    const firstCode = await codeOf(first);
    // make sure the two random codes differ
    const [row] = await codeRows(t, second);
    await t.run((ctx) => ctx.db.patch("startCodes", row!._id, { code: otherThan(firstCode) }));
    expect(
      await pro.as.mutation(api.bookings.start, { bookingId: second, code: firstCode }),
    ).toEqual({ started: false, triesLeft: 4 });
    expect((await stored(t, second)).status).toBe("arrived");
    await pro.as.mutation(api.bookings.start, { bookingId: first, code: firstCode });
    expect((await stored(t, first)).status).toBe("in_progress");
  });

  test("each new code is random and replaces the one before", async () => {
    const { t, booking } = await setup();
    const id = await booking();
    const codes = new Set<string>();
    for (let i = 0; i < 4; i++) {
      await t.run((ctx) => issueStartCode(ctx, id));
      const rows = await codeRows(t, id);
      expect(rows).toHaveLength(1);
      codes.add(rows[0]!.code);
    }
    // four equal 4-digit codes by chance: one in 10^12
    expect(codes.size).toBeGreaterThan(1);
  });

  test(`allows ${START_CODE.tries} wrong codes, then only the customer's tap starts the job`, async () => {
    const { t, customer, pro, booking, codeOf } = await setup();
    const id = await booking();
    const code = await codeOf(id);
    const wrong = otherThan(code);
    for (let left = 4; left >= 0; left--) {
      expect(await pro.as.mutation(api.bookings.start, { bookingId: id, code: wrong })).toEqual({
        started: false,
        triesLeft: left,
      });
    }
    // the right code no longer works once the tries are spent
    expect(await errorCode(pro.as.mutation(api.bookings.start, { bookingId: id, code }))).toBe(
      "START_CODE_SPENT",
    );
    expect((await stored(t, id)).status).toBe("arrived");
    const seen = await customer.as.query(api.bookings.get, { bookingId: id });
    expect(seen?.start).toEqual({ code: null, triesLeft: 0, spent: true });
    await customer.as.mutation(api.bookings.confirmStart, { bookingId: id });
    expect((await stored(t, id)).status).toBe("in_progress");
    expect(await codeRows(t, id)).toEqual([]);
  });

  test("the customer cannot start the job while the code still has tries", async () => {
    const { t, customer, booking } = await setup();
    const id = await booking();
    expect(
      await errorCode(customer.as.mutation(api.bookings.confirmStart, { bookingId: id })),
    ).toBe("START_CODE_ACTIVE");
    expect((await stored(t, id)).status).toBe("arrived");
  });

  test("a malformed code is refused and costs no try", async () => {
    const { t, pro, booking } = await setup();
    const id = await booking();
    for (const code of ["12a4", "12345", "", " 1234"])
      expect(await errorCode(pro.as.mutation(api.bookings.start, { bookingId: id, code }))).toBe(
        "INVALID_INPUT",
      );
    expect((await codeRows(t, id))[0]!.wrongTries).toBe(0);
  });

  test("a booking not arrived cannot be started, with a code or by the customer", async () => {
    const { t, customer, pro, booking } = await setup();
    const id = await booking({ arrive: false });
    expect(
      await errorCode(pro.as.mutation(api.bookings.start, { bookingId: id, code: "1234" })),
    ).toBe("ILLEGAL_TRANSITION");
    expect(
      await errorCode(customer.as.mutation(api.bookings.confirmStart, { bookingId: id })),
    ).toBe("ILLEGAL_TRANSITION");
    expect((await stored(t, id)).status).toBe("en_route");
  });

  test("the arrived step leads no longer straight to work: arrive twice is a retry", async () => {
    const { t, pro, booking, codeOf } = await setup();
    const id = await booking();
    const code = await codeOf(id);
    await pro.as.mutation(api.bookings.arrive, { bookingId: id });
    expect((await stored(t, id)).status).toBe("arrived");
    expect(await codeOf(id)).toBe(code);
  });

  test("only the booking's professional types the code; only its customer taps", async () => {
    const { t, customer, otherCustomer, pro, otherPro, admin, booking, codeOf } = await setup();
    const id = await booking();
    const code = await codeOf(id);
    const start = api.bookings.start;
    expect(await errorCode(t.mutation(start, { bookingId: id, code }))).toBe("UNAUTHENTICATED");
    expect(await errorCode(otherPro.as.mutation(start, { bookingId: id, code }))).toBe("NOT_FOUND");
    for (const caller of [customer, admin])
      expect(await errorCode(caller.as.mutation(start, { bookingId: id, code }))).toBe("FORBIDDEN");
    const confirm = api.bookings.confirmStart;
    expect(await errorCode(t.mutation(confirm, { bookingId: id }))).toBe("UNAUTHENTICATED");
    expect(await errorCode(otherCustomer.as.mutation(confirm, { bookingId: id }))).toBe(
      "NOT_FOUND",
    );
    for (const caller of [pro, admin])
      expect(await errorCode(caller.as.mutation(confirm, { bookingId: id }))).toBe("FORBIDDEN");
    // none of them used a try
    expect((await codeRows(t, id))[0]!.wrongTries).toBe(0);
    expect((await stored(t, id)).status).toBe("arrived");
  });

  test("a cancelled arrived booking keeps no code", async () => {
    const { t, pro, booking } = await setup();
    const id = await booking();
    await pro.as.mutation(api.bookings.cancel, { bookingId: id, reason: "The ladder broke." });
    expect(await codeRows(t, id)).toEqual([]);
  });
});
