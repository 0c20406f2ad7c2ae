import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { upsertCatalog } from "./model/catalog";
import {
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  startWithCustomersCode,
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
  /** A job the professional marks done; by default one that took an hour, confirmed by its customer. */
  const completed = async ({ fast = false, confirm = true } = {}) => {
    const id = await book();
    for (const fn of [api.bookings.accept, api.bookings.startTrip, api.bookings.arrive])
      await pro.as.mutation(fn, { bookingId: id });
    await startWithCustomersCode(customer.as, pro.as, id);
    await pro.as.mutation(api.bookings.complete, { bookingId: id });
    if (!fast)
      await t.run(async (ctx) => {
        const b = (await ctx.db.get("bookings", id))!;
        await ctx.db.patch("bookings", id, { acceptedAt: b.workDoneAt! - HOUR });
      });
    if (confirm) await customer.as.mutation(api.bookings.confirmDone, { bookingId: id });
    return id;
  };
  return { t, customer, otherCustomer, pro, otherPro, admin, book, completed };
}

const HOUR = 60 * 60 * 1000;

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

describe("a job is done when its customer confirms it", () => {
  test("a review waits for the customer's confirmation; only they may give it, once", async () => {
    const { t, customer, otherCustomer, pro, book, completed } = await setup();
    const early = await book();
    expect(
      await errorCode(customer.as.mutation(api.bookings.confirmDone, { bookingId: early })),
    ).toBe("NOT_COMPLETED");
    const id = await completed({ confirm: false });
    const opts = { paginationOpts: { numItems: 5, cursor: null } };
    const card = async () => (await customer.as.query(api.bookings.forCustomer, opts)).page[0];
    expect(await card()).toMatchObject({
      status: "completed",
      confirmedBy: null,
      canReview: false,
    });
    expect(
      await errorCode(customer.as.mutation(api.reviews.create, { bookingId: id, rating: 5 })),
    ).toBe("NOT_CONFIRMED");
    expect(await errorCode(t.mutation(api.bookings.confirmDone, { bookingId: id }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await errorCode(pro.as.mutation(api.bookings.confirmDone, { bookingId: id }))).toBe(
      "FORBIDDEN",
    );
    expect(
      await errorCode(otherCustomer.as.mutation(api.bookings.confirmDone, { bookingId: id })),
    ).toBe("NOT_FOUND");
    await customer.as.mutation(api.bookings.confirmDone, { bookingId: id });
    await customer.as.mutation(api.bookings.confirmDone, { bookingId: id });
    expect(await card()).toMatchObject({ confirmedBy: "customer", canReview: true });
    expect(await customer.as.mutation(api.reviews.create, { bookingId: id, rating: 5 })).toEqual({
      reviewId: expect.any(String),
      held: false,
    });
  });

  test("a customer who says nothing is taken to agree 48 hours after the work was marked done", async () => {
    const { t, customer, completed } = await setup();
    const id = await completed({ confirm: false });
    const job = await t.run(async (ctx) =>
      (await ctx.db.system.query("_scheduled_functions").collect()).find(
        (j) => j.name === "bookings:autoConfirm",
      ),
    );
    const workDoneAt = await t.run(async (ctx) => (await ctx.db.get("bookings", id))!.workDoneAt!);
    expect(job!.scheduledTime - workDoneAt).toBeGreaterThanOrEqual(48 * HOUR);
    await t.mutation(internal.bookings.autoConfirm, { bookingId: id });
    expect(await t.run(async (ctx) => (await ctx.db.get("bookings", id))!.confirmedBy)).toBe(
      "system",
    );
    // the customer may still rate the job they did not confirm themselves
    await customer.as.mutation(api.reviews.create, { bookingId: id, rating: 2 });
  });

  test("a customer writes at most 3 reviews a day", async () => {
    const { customer, completed } = await setup();
    for (let i = 0; i < 3; i++)
      await customer.as.mutation(api.reviews.create, { bookingId: await completed(), rating: 5 });
    const fourth = await completed();
    expect(
      await errorCode(customer.as.mutation(api.reviews.create, { bookingId: fourth, rating: 5 })),
    ).toBe("RATE_LIMITED");
  });
});

describe("reviews of implausibly fast jobs", () => {
  test("are held: not in the rating nor the public list, until an admin publishes one", async () => {
    const { t, customer, pro, admin, completed } = await setup();
    const fast = await completed({ fast: true });
    const { reviewId, held } = await customer.as.mutation(api.reviews.create, {
      bookingId: fast,
      rating: 5,
      comment: "Best ever",
    });
    expect(held).toBe(true);
    expect(await rating(t, pro.professionalId)).toEqual({ sum: 0, count: 0 });
    expect(
      await t.query(api.reviews.forProfessional, { professionalId: pro.professionalId }),
    ).toEqual([]);
    const list = await admin.as.query(api.adminReviews.held, {});
    expect(list).toEqual([
      expect.objectContaining({ _id: reviewId, bookingId: fast, rating: 5, comment: "Best ever" }),
    ]);
    expect(list[0].jobMs).toBeLessThan(15 * 60 * 1000);
    await admin.as.mutation(api.adminReviews.publish, { reviewId });
    expect(await rating(t, pro.professionalId)).toEqual({ sum: 5, count: 1 });
    expect(await admin.as.query(api.adminReviews.held, {})).toEqual([]);
    expect(
      await t.query(api.reviews.forProfessional, { professionalId: pro.professionalId }),
    ).toHaveLength(1);
    const decisions = await t.run((ctx) => ctx.db.query("reviewDecisions").collect());
    expect(decisions).toEqual([
      expect.objectContaining({ reviewId, adminId: admin.userId, decision: "published" }),
    ]);
  });

  test("an admin removes a review: the rating is recomputed and the removal kept", async () => {
    const { t, customer, pro, admin, completed } = await setup();
    await customer.as.mutation(api.reviews.create, { bookingId: await completed(), rating: 3 });
    const { reviewId } = await customer.as.mutation(api.reviews.create, {
      bookingId: await completed({ fast: true }),
      rating: 5,
    });
    const { reviewId: counted } = await customer.as.mutation(api.reviews.create, {
      bookingId: await completed(),
      rating: 1,
    });
    expect(await rating(t, pro.professionalId)).toEqual({ sum: 4, count: 2 });
    await admin.as.mutation(api.adminReviews.remove, { reviewId });
    await admin.as.mutation(api.adminReviews.remove, { reviewId: counted });
    expect(await rating(t, pro.professionalId)).toEqual({ sum: 3, count: 1 });
    expect(await t.run((ctx) => ctx.db.get("reviews", reviewId))).toBeNull();
    const decisions = await t.run((ctx) => ctx.db.query("reviewDecisions").collect());
    expect(decisions.map((d) => [d.reviewId, d.decision, d.rating])).toEqual([
      [reviewId, "removed", 5],
      [counted, "removed", 1],
    ]);
    expect(await errorCode(admin.as.mutation(api.adminReviews.remove, { reviewId }))).toBe(
      "NOT_FOUND",
    );
  });

  test("only admins see, publish or remove held reviews", async () => {
    const { t, customer, otherCustomer, pro, completed } = await setup();
    const { reviewId } = await customer.as.mutation(api.reviews.create, {
      bookingId: await completed({ fast: true }),
      rating: 5,
    });
    expect(await errorCode(t.query(api.adminReviews.held, {}))).toBe("UNAUTHENTICATED");
    for (const caller of [customer, otherCustomer, pro]) {
      expect(await errorCode(caller.as.query(api.adminReviews.held, {}))).toBe("FORBIDDEN");
      for (const fn of [api.adminReviews.publish, api.adminReviews.remove])
        expect(await errorCode(caller.as.mutation(fn, { reviewId }))).toBe("FORBIDDEN");
    }
    expect(await t.run((ctx) => ctx.db.get("reviews", reviewId))).toMatchObject({ held: true });
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
    const { reviewId } = await customer.as.mutation(api.reviews.create, {
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

describe("reviews:testimonials", () => {
  test("the landing quotes the newest published five-star reviews with words: first name, specialty, city", async () => {
    const { t, customer, otherCustomer, pro, admin, completed } = await setup();
    const review = async (rating: number, comment: string, fast = false) =>
      customer.as.mutation(api.reviews.create, {
        bookingId: await completed({ fast }),
        rating,
        comment,
      });
    await review(5, "Fixed the leaking tap in twenty minutes, very tidy.");
    await review(4, "Good work, but came half an hour late to the house.");
    await review(5, "Tapped through in a minute by a friend of the pro.", true); // held
    const short = await completed();
    await t.run(async (ctx) => {
      await ctx.db.insert("reviews", {
        bookingId: short,
        professionalId: pro.professionalId,
        customerId: customer.userId,
        rating: 5,
        comment: "Great!",
      });
    });
    const quoted = [
      {
        _id: expect.any(String),
        comment: "Fixed the leaking tap in twenty minutes, very tidy.",
        customerName: "Sita S.",
        specialty: "Plumber",
        city: "nepalgunj",
      },
    ];
    expect(await t.query(api.reviews.testimonials, {})).toEqual(quoted);
    expect(await otherCustomer.as.query(api.reviews.testimonials, {})).toEqual(quoted);

    // a suspended professional's words leave the landing with their listing
    await admin.as.mutation(api.adminAccounts.suspend, {
      userId: pro.userId,
      reason: "Checking complaints about this account",
    });
    expect(await t.query(api.reviews.testimonials, {})).toEqual([]);
  });
});
