import { beforeAll, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import {
  bookingRow,
  errorCode,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  useAuthEnv,
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);

const TEXT = "The professional never came and did not answer the phone.";

async function setup() {
  const t = newTest();
  const admin = await insertAdmin(t);
  const sita = await insertCustomer(t);
  const ram = await insertProfessional(t);
  const stranger = await insertCustomer(t, "Gita Rai");
  const otherPro = await insertProfessional(t, { name: "Hari KC" });
  const bookingId = await t.run((ctx) =>
    ctx.db.insert("bookings", bookingRow(sita.userId, ram, "reviewed")),
  );
  const reviewId = await t.run((ctx) =>
    ctx.db.insert("reviews", {
      bookingId,
      professionalId: ram.professionalId,
      customerId: sita.userId,
      rating: 1,
      comment: "Terrible",
    }),
  );
  return { t, admin, sita, ram, stranger, otherPro, bookingId, reviewId };
}

async function openReports(t: TestConvex) {
  return await t.run((ctx) =>
    ctx.db
      .query("reports")
      .withIndex("by_status", (q) => q.eq("status", "open"))
      .collect(),
  );
}

describe("reports:create", () => {
  test("either party reports the booking or its review; strangers, admins and visitors are refused", async () => {
    const { t, admin, sita, ram, stranger, otherPro, bookingId } = await setup();
    const args = {
      bookingId,
      target: "booking" as const,
      category: "no_show" as const,
      text: TEXT,
    };
    await sita.as.mutation(api.reports.create, args);
    await ram.as.mutation(api.reports.create, {
      ...args,
      target: "review",
      category: "false_review",
    });
    expect(await errorCode(stranger.as.mutation(api.reports.create, args))).toBe("NOT_FOUND");
    expect(await errorCode(otherPro.as.mutation(api.reports.create, args))).toBe("NOT_FOUND");
    expect(await errorCode(admin.as.mutation(api.reports.create, args))).toBe("FORBIDDEN");
    expect(await errorCode(t.mutation(api.reports.create, args))).toBe("UNAUTHENTICATED");
    const rows = await openReports(t);
    expect(rows.map((r) => [r.reporterId, r.reviewId !== undefined, r.category])).toEqual([
      [sita.userId, false, "no_show"],
      [ram.userId, true, "false_review"],
    ]);
  });

  test("one open report per reporter and target; a short text is refused", async () => {
    const { admin, sita, bookingId } = await setup();
    const args = { bookingId, target: "booking" as const, category: "rude" as const, text: TEXT };
    const first = await sita.as.mutation(api.reports.create, args);
    expect(await errorCode(sita.as.mutation(api.reports.create, args))).toBe("REPORT_OPEN");
    // the review is another target
    await sita.as.mutation(api.reports.create, { ...args, target: "review" });
    expect(await errorCode(sita.as.mutation(api.reports.create, { ...args, text: "Bad" }))).toBe(
      "INVALID_INPUT",
    );
    await admin.as.mutation(api.adminReports.resolve, { reportId: first, note: "Talked to both" });
    await sita.as.mutation(api.reports.create, args); // resolved: may report again
  });

  test("rate-limited: five reports an hour per reporter", async () => {
    const { t, sita, ram } = await setup();
    const bookings = await t.run(async (ctx) =>
      Promise.all(
        Array.from({ length: 6 }, () =>
          ctx.db.insert("bookings", bookingRow(sita.userId, ram, "completed")),
        ),
      ),
    );
    for (const bookingId of bookings.slice(0, 5))
      await sita.as.mutation(api.reports.create, {
        bookingId,
        target: "booking",
        category: "other",
        text: TEXT,
      });
    expect(
      await errorCode(
        sita.as.mutation(api.reports.create, {
          bookingId: bookings[5],
          target: "booking",
          category: "other",
          text: TEXT,
        }),
      ),
    ).toBe("RATE_LIMITED");
    expect(
      await errorCode(
        sita.as.mutation(api.reports.create, {
          bookingId: bookings[0],
          target: "review",
          category: "other",
          text: TEXT,
        }),
      ),
    ).toBe("NOT_FOUND"); // no review on that booking
  });

  test("mine: the reporter sees their report's status and the admin's note; others see nothing", async () => {
    const { admin, sita, ram, stranger, bookingId } = await setup();
    const reportId = await sita.as.mutation(api.reports.create, {
      bookingId,
      target: "booking",
      category: "overcharge",
      text: TEXT,
    });
    expect(await sita.as.query(api.reports.mine, { bookingId })).toMatchObject([
      { _id: reportId, status: "open", category: "overcharge", resolutionNote: null },
    ]);
    await admin.as.mutation(api.adminReports.resolve, {
      reportId,
      note: "Refunded the extra Nrs. 500",
    });
    expect(await sita.as.query(api.reports.mine, { bookingId })).toMatchObject([
      { status: "resolved", resolutionNote: "Refunded the extra Nrs. 500" },
    ]);
    expect(await ram.as.query(api.reports.mine, { bookingId })).toEqual([]);
    expect(await stranger.as.query(api.reports.mine, { bookingId })).toBeNull();
  });
});

describe("adminReports", () => {
  test("queue, live count, detail with its target, resolve with a note: admins only", async () => {
    const { t, admin, sita, ram, bookingId } = await setup();
    const page = { numItems: 10, cursor: null };
    expect(await admin.as.query(api.adminReports.openCount, {})).toBe(0);
    const reportId = await ram.as.mutation(api.reports.create, {
      bookingId,
      target: "review",
      category: "false_review",
      text: "This review is about another job entirely.",
    });
    expect(await admin.as.query(api.adminReports.openCount, {})).toBe(1);
    const queue = await admin.as.query(api.adminReports.list, {
      status: "open",
      paginationOpts: page,
    });
    expect(queue.page).toMatchObject([
      { _id: reportId, target: "review", reporter: { name: "Ram Thapa", role: "professional" } },
    ]);
    const detail = await admin.as.query(api.adminReports.get, { reportId });
    expect(detail).toMatchObject({
      status: "open",
      review: { rating: 1, comment: "Terrible" },
      booking: { _id: bookingId, status: "reviewed" },
      parties: {
        customer: { userId: sita.userId, suspended: false },
        professional: { userId: ram.userId, suspended: false },
      },
    });
    for (const as of [sita.as, ram.as]) {
      expect(await errorCode(as.query(api.adminReports.openCount, {}))).toBe("FORBIDDEN");
      expect(await errorCode(as.query(api.adminReports.get, { reportId }))).toBe("FORBIDDEN");
      expect(
        await errorCode(as.mutation(api.adminReports.resolve, { reportId, note: "Closing it" })),
      ).toBe("FORBIDDEN");
    }
    expect(
      await errorCode(admin.as.mutation(api.adminReports.resolve, { reportId, note: "ok" })),
    ).toBe("INVALID_INPUT");
    await admin.as.mutation(api.adminReports.resolve, { reportId, note: "Review removed." });
    await admin.as.mutation(api.adminReports.resolve, { reportId, note: "Second answer" });
    expect(await admin.as.query(api.adminReports.openCount, {})).toBe(0);
    expect(await admin.as.query(api.adminReports.get, { reportId })).toMatchObject({
      status: "resolved",
      resolutionNote: "Review removed.",
      resolvedBy: "Admin",
    });
    const resolved = await admin.as.query(api.adminReports.list, {
      status: "resolved",
      paginationOpts: page,
    });
    expect(resolved.page.map((r) => r._id)).toEqual([reportId]);
    expect(await t.query(api.adminBookings.get, { bookingId }).catch(() => "refused")).toBe(
      "refused",
    );
    expect((await admin.as.query(api.adminBookings.get, { bookingId }))?.reports).toMatchObject([
      { _id: reportId, status: "resolved" },
    ]);
  });
});
