import { E2E } from "../../env";
import { expect, test, type Actor } from "../../fixtures";
import { m, say } from "../../i18n";
import { paidKathmanduJob } from "../../money";
import { expectNoSidewaysScroll } from "../../people";

const CUSTOMER = { email: "customer2@demo.np", password: "demo-password-1" };
const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

/** Today's row of the table (the newest period comes first), as the admin's page shows it. */
const today = (a: Actor) =>
  a.page
    .getByRole("region", { name: say(a.locale, m.revenue_table_title) })
    .getByRole("row")
    .nth(1);

const jobsIn = async (row: ReturnType<typeof today>) =>
  Number(
    ((await row.getByRole("cell").first().textContent()) ?? "").replace(/[०-९]/g, (d) =>
      String(d.charCodeAt(0) - 0x0966),
    ),
  );

test("the admin's revenue: today's row counts a job paid and done meanwhile, live; per month and BS month", async ({
  actor,
}) => {
  test.setTimeout(150_000);
  const admin = await actor({ viewport: DESKTOP, locale: "en" });
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await admin.page.goto("/admin/revenue");
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText(
    say("en", m.admin_nav_revenue),
  );
  const row = today(admin);
  await expect(row).toBeVisible();
  const before = await jobsIn(row);

  // a job is paid with Khalti and marked done elsewhere: the open page counts it without a reload
  const { totalPaisa } = await paidKathmanduJob(CUSTOMER);
  await expect(row.getByRole("cell").first()).toHaveText(String(before + 1));
  await expect(admin.page.getByRole("img", { name: /Gross per period/ })).toBeVisible();
  await admin.page.screenshot({ path: "e2e/screenshots/admin-revenue-day-en-1280.png" });

  // per month: this month's row holds at least today's jobs and this job's gross
  await admin.page
    .getByRole("button", { name: say("en", m.revenue_by_month), exact: true })
    .click();
  await expect(
    admin.page.getByRole("button", { name: say("en", m.revenue_by_month), exact: true }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(
    admin.page
      .getByRole("region", { name: say("en", m.revenue_table_title) })
      .getByRole("columnheader")
      .first(),
  ).toHaveText(say("en", m.revenue_by_month));
  expect(await jobsIn(today(admin))).toBeGreaterThanOrEqual(before + 1);
  expect(totalPaisa).toBeGreaterThan(0);

  // per Bikram Sambat month, with cancellation fees and the platform's income in their own columns
  await admin.page.getByRole("button", { name: say("en", m.revenue_by_bs_month) }).click();
  await expect(today(admin).getByRole("rowheader")).toHaveText(/^[A-Z][a-z]+ \d{4} BS$/);
  expect(await jobsIn(today(admin))).toBeGreaterThanOrEqual(before + 1);
  for (const column of [m.revenue_fees, m.revenue_income])
    await expect(admin.page.getByRole("columnheader", { name: say("en", column) })).toBeVisible();
  await admin.page.screenshot({ path: "e2e/screenshots/admin-revenue-bs-month-en-1280.png" });

  // in Nepali on a phone: no sideways scroll (the table scrolls within its card)
  const adminNe = await actor({ viewport: PHONE, locale: "ne-NP" });
  await adminNe.auth.adminLogin(E2E.adminNe.username, E2E.adminNe.password);
  await adminNe.page.goto("/admin/revenue");
  await expect(today(adminNe)).toBeVisible();
  await expectNoSidewaysScroll(adminNe);
  await adminNe.page.screenshot({
    path: "e2e/screenshots/admin-revenue-day-ne-360.png",
    fullPage: true,
  });
});
