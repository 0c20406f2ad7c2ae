import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { CHART_DAYS, chartStart, DAY_MS, kathmanduDayStart } from "./rules/earnings";
import {
  errorCode,
  FIRST_PAGE,
  insertAdmin,
  insertCustomer,
  insertPaidJob,
  insertProfessional,
  newTest,
} from "./test.setup";

async function setup() {
  const t = newTest();
  const customer = await insertCustomer(t);
  const pro = await insertProfessional(t);
  const otherPro = await insertProfessional(t, { name: "Hari Karki" });
  return { t, customer, pro, otherPro };
}

describe("a professional's earnings", () => {
  test("lists each job with its gross, the 10% commission, the net and how it was paid", async () => {
    const { t, customer, pro } = await setup();
    const esewaJob = await insertPaidJob(t, customer.userId, pro, { rupees: 1500 });
    const cashJob = await insertPaidJob(t, customer.userId, pro, { rupees: 800, method: "cash" });
    const { page, isDone } = await pro.as.query(api.earnings.jobs, FIRST_PAGE);
    expect(isDone).toBe(true);
    expect(
      page.map((j) => [j.bookingId, j.grossPaisa, j.commissionPaisa, j.netPaisa, j.method]),
    ).toEqual([
      [cashJob, 80_000, 8_000, 72_000, "cash"],
      [esewaJob, 150_000, 15_000, 135_000, "esewa"],
    ]);
  });

  test("shows only the viewer's own jobs and balance", async () => {
    const { t, customer, pro, otherPro } = await setup();
    await insertPaidJob(t, customer.userId, pro, { rupees: 1500 });
    const theirs = await insertPaidJob(t, customer.userId, otherPro, { rupees: 900 });
    const mine = await pro.as.query(api.earnings.jobs, FIRST_PAGE);
    expect(mine.page.map((j) => j.bookingId)).not.toContain(theirs);
    expect(mine.page).toHaveLength(1);
    const other = await otherPro.as.query(api.earnings.jobs, FIRST_PAGE);
    expect(other.page.map((j) => j.bookingId)).toEqual([theirs]);
    const summary = await otherPro.as.query(api.earnings.summary, { since: 0 });
    expect(summary.dueToThemPaisa).toBe(81_000);
  });

  test("nets the commission owed on cash jobs against what is due", async () => {
    const { t, customer, pro } = await setup();
    await insertPaidJob(t, customer.userId, pro, { rupees: 1000, method: "cash" });
    const owing = await pro.as.query(api.earnings.summary, { since: 0 });
    expect(owing).toMatchObject({ dueToThemPaisa: 0, owedByThemPaisa: 10_000, paidOutPaisa: 0 });
    await insertPaidJob(t, customer.userId, pro, { rupees: 2000, method: "khalti" });
    const due = await pro.as.query(api.earnings.summary, { since: 0 });
    expect(due).toMatchObject({ dueToThemPaisa: 180_000 - 10_000, owedByThemPaisa: 0 });
  });

  test("charts the net per Kathmandu day over the last 30 days, today last", async () => {
    const { t, customer, pro } = await setup();
    await insertPaidJob(t, customer.userId, pro, { rupees: 1000 });
    await insertPaidJob(t, customer.userId, pro, { rupees: 500 });
    const { daily } = await pro.as.query(api.earnings.summary, { since: chartStart(Date.now()) });
    expect(daily).toHaveLength(CHART_DAYS);
    expect(daily.at(-1)).toBe(90_000 + 45_000);
    expect(daily.slice(0, -1).every((d) => d === 0)).toBe(true);
    const tomorrow = await pro.as.query(api.earnings.summary, {
      since: kathmanduDayStart(Date.now()) + DAY_MS,
    });
    expect(tomorrow.daily.every((d) => d === 0)).toBe(true);
  });

  test("a day starts at midnight in Kathmandu (UTC+5:45)", () => {
    expect(new Date(kathmanduDayStart(Date.UTC(2026, 10, 27, 18, 14))).toISOString()).toBe(
      "2026-11-26T18:15:00.000Z",
    );
    expect(new Date(kathmanduDayStart(Date.UTC(2026, 10, 27, 18, 15))).toISOString()).toBe(
      "2026-11-27T18:15:00.000Z",
    );
  });

  test("pages are at most 20 jobs whatever the client asks", async () => {
    const { t, customer, pro } = await setup();
    for (let i = 0; i < 22; i++) await insertPaidJob(t, customer.userId, pro, { rupees: 100 });
    const first = await pro.as.query(api.earnings.jobs, {
      paginationOpts: { numItems: 10_000, cursor: null },
    });
    expect(first.page).toHaveLength(20);
    expect(first.isDone).toBe(false);
  });

  test("customers, admins and visitors are refused", async () => {
    const { t, customer } = await setup();
    const admin = await insertAdmin(t);
    expect(await errorCode(admin.as.query(api.earnings.jobs, FIRST_PAGE))).toBe("FORBIDDEN");
    expect(await errorCode(customer.as.query(api.earnings.jobs, FIRST_PAGE))).toBe("FORBIDDEN");
    expect(await errorCode(customer.as.query(api.earnings.summary, { since: 0 }))).toBe(
      "FORBIDDEN",
    );
    expect(await errorCode(t.query(api.earnings.summary, { since: 0 }))).toBe("UNAUTHENTICATED");
  });

  test("refuses a chart start that is not a whole instant", async () => {
    const { pro } = await setup();
    for (const since of [-1, 0.5, Number.MAX_VALUE])
      expect(await errorCode(pro.as.query(api.earnings.summary, { since }))).toBe("INVALID_INPUT");
  });
});
