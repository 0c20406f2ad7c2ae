import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  type TestConvex,
} from "./test.setup";

async function setup() {
  const t = newTest();
  await t.run((ctx) => upsertCatalog(ctx));
  const customer = await insertCustomer(t, "Sita Sharma");
  const otherCustomer = await insertCustomer(t, "Gita Karki");
  const pro = await insertProfessional(t, { specialty: "plumber", city: "nepalgunj" });
  const otherPro = await insertProfessional(t, { specialty: "plumber", city: "nepalgunj" });
  const admin = await insertAdmin(t);
  const service = await t.run((ctx) =>
    ctx.db
      .query("services")
      .withIndex("by_category_and_name", (q) =>
        q.eq("category", "plumbing").eq("name", "Tap & Mixer Repair"),
      )
      .unique(),
  );
  const book = () =>
    customer.as.mutation(api.bookings.create, {
      professionalId: pro.professionalId,
      serviceIds: [service!._id],
      address: "Ward 5, Nepalgunj",
      city: "nepalgunj",
      scheduledFor: Date.now() + 60 * 60 * 1000,
    });
  const completed = async () => {
    const id = await book();
    for (const fn of [
      api.bookings.accept,
      api.bookings.startTrip,
      api.bookings.arrive,
      api.bookings.complete,
    ]) {
      await pro.as.mutation(fn, { bookingId: id });
    }
    return id;
  };
  return { t, customer, otherCustomer, pro, otherPro, admin, book, completed };
}

const rating = (t: TestConvex, id: Id<"professionals">) =>
  t.run(async (ctx) => (await ctx.db.get("professionals", id))!.rating);

describe("reviews:create", () => {
  test("the customer rates a completed job once; aggregate and status move together", async () => {
    const { t, customer, pro, completed } = await setup();
    const first = await completed();
    const second = await completed();
    await customer.as.mutation(api.reviews.create, {
      bookingId: first,
      rating: 5,
      comment: "  Quick and tidy  ",
    });
    await customer.as.mutation(api.reviews.create, { bookingId: second, rating: 4 });
    expect(await rating(t, pro.professionalId)).toEqual({ sum: 9, count: 2 });
    expect(await t.run(async (ctx) => (await ctx.db.get("bookings", first))!.status)).toBe(
      "reviewed",
    );
    expect(
      await errorCode(customer.as.mutation(api.reviews.create, { bookingId: first, rating: 1 })),
    ).toBe("ALREADY_REVIEWED");
    expect(await rating(t, pro.professionalId)).toEqual({ sum: 9, count: 2 });
    const notes = await t.run((ctx) =>
      ctx.db
        .query("notifications")
        .withIndex("by_userId", (q) => q.eq("userId", pro.userId))
        .collect(),
    );
    expect(notes.filter((n) => n.kind === "booking.reviewed")).toHaveLength(2);
  });

  test("refused before completion, out of range, or too long", async () => {
    const { customer, book, completed } = await setup();
    const pending = await book();
    expect(
      await errorCode(customer.as.mutation(api.reviews.create, { bookingId: pending, rating: 5 })),
    ).toBe("NOT_COMPLETED");
    const done = await completed();
    for (const bad of [0, 6, 3.5, Number.NaN]) {
      expect(
        await errorCode(customer.as.mutation(api.reviews.create, { bookingId: done, rating: bad })),
      ).toBe("INVALID_RATING");
    }
    expect(
      await errorCode(
        customer.as.mutation(api.reviews.create, {
          bookingId: done,
          rating: 4,
          comment: "x".repeat(1001),
        }),
      ),
    ).toBe("COMMENT_TOO_LONG");
    await customer.as.mutation(api.reviews.create, {
      bookingId: done,
      rating: 4,
      comment: "x".repeat(1000),
    });
  });

  test("only the booking's customer may review", async () => {
    const { t, otherCustomer, pro, otherPro, admin, completed } = await setup();
    const id = await completed();
    const args = { bookingId: id, rating: 5 };
    expect(await errorCode(t.mutation(api.reviews.create, args))).toBe("UNAUTHENTICATED");
    // another customer's booking answers as a missing one
    expect(await errorCode(otherCustomer.as.mutation(api.reviews.create, args))).toBe("NOT_FOUND");
    expect(await errorCode(pro.as.mutation(api.reviews.create, args))).toBe("FORBIDDEN");
    expect(await errorCode(otherPro.as.mutation(api.reviews.create, args))).toBe("FORBIDDEN");
    expect(await errorCode(admin.as.mutation(api.reviews.create, args))).toBe("FORBIDDEN");
    expect(await rating(t, pro.professionalId)).toEqual({ sum: 0, count: 0 });
  });

  test("canReview is offered on completed bookings only", async () => {
    const { customer, completed } = await setup();
    const id = await completed();
    const opts = { paginationOpts: { numItems: 5, cursor: null } };
    expect((await customer.as.query(api.bookings.forCustomer, opts)).page[0].canReview).toBe(true);
    await customer.as.mutation(api.reviews.create, { bookingId: id, rating: 3 });
    expect((await customer.as.query(api.bookings.forCustomer, opts)).page[0].canReview).toBe(false);
  });
});

describe("reviews:forProfessional", () => {
  test("public, newest first, reviewer as first name and initial", async () => {
    const { t, customer, pro, completed } = await setup();
    const a = await completed();
    const b = await completed();
    await customer.as.mutation(api.reviews.create, { bookingId: a, rating: 4, comment: "Good" });
    await customer.as.mutation(api.reviews.create, { bookingId: b, rating: 5 });
    const reviews = await t.query(api.reviews.forProfessional, {
      professionalId: pro.professionalId,
    });
    expect(reviews).toMatchObject([
      { rating: 5, comment: null, customerName: "Sita S." },
      { rating: 4, comment: "Good", customerName: "Sita S." },
    ]);
    expect(
      await customer.as.query(api.reviews.forProfessional, { professionalId: pro.professionalId }),
    ).toEqual(reviews);
  });
});

describe("reviews:page and reviews:reply", () => {
  test("everyone reads a verified professional's reviews with comments, newest first, paginated", async () => {
    const { t, customer, pro, completed } = await setup();
    for (const [i, comment] of ["Good work", "Came on time", "Fixed the tap"].entries()) {
      const bookingId = await completed();
      await customer.as.mutation(api.reviews.create, { bookingId, rating: 3 + (i % 3), comment });
    }
    const first = await t.query(api.reviews.page, {
      professionalId: pro.professionalId,
      paginationOpts: { numItems: 2, cursor: null },
    });
    expect(first.page.map((r) => r.comment)).toEqual(["Fixed the tap", "Came on time"]);
    expect(first.page[0]).toMatchObject({ customerName: "Sita S.", reply: null });
    const rest = await t.query(api.reviews.page, {
      professionalId: pro.professionalId,
      paginationOpts: { numItems: 2, cursor: first.continueCursor },
    });
    expect(rest.page.map((r) => r.comment)).toEqual(["Good work"]);
    const profile = await t.query(api.professionals.get, { professionalId: pro.professionalId });
    expect(profile!.reviews.distribution).toEqual([
      { stars: 1, count: 0 },
      { stars: 2, count: 0 },
      { stars: 3, count: 1 },
      { stars: 4, count: 1 },
      { stars: 5, count: 1 },
    ]);
    expect(profile).toMatchObject({ completedJobs: 3 });
    expect(profile!.medianAcceptMs).toBeGreaterThanOrEqual(0);
    expect(profile!.services.length).toBeGreaterThan(0);
    expect(profile).not.toHaveProperty("phone");
    expect(profile!.contact).toBeNull();
  });

  test("the reviewed professional replies once; other professionals and customers cannot", async () => {
    const { customer, otherPro, pro, completed } = await setup();
    const bookingId = await completed();
    const reviewId = await customer.as.mutation(api.reviews.create, {
      bookingId,
      rating: 4,
      comment: "Good",
    });
    expect(
      await errorCode(otherPro.as.mutation(api.reviews.reply, { reviewId, text: "Thanks!" })),
    ).toBe("NOT_FOUND");
    expect(
      await errorCode(customer.as.mutation(api.reviews.reply, { reviewId, text: "Thanks!" })),
    ).toBe("FORBIDDEN");
    await pro.as.mutation(api.reviews.reply, { reviewId, text: "Thank you, Sita!" });
    expect(await errorCode(pro.as.mutation(api.reviews.reply, { reviewId, text: "Again" }))).toBe(
      "ALREADY_REPLIED",
    );
    const page = await customer.as.query(api.reviews.page, {
      professionalId: pro.professionalId,
      paginationOpts: { numItems: 5, cursor: null },
    });
    expect(page.page[0].reply).toMatchObject({ text: "Thank you, Sita!" });
  });
});
