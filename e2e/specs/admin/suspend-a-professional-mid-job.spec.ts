import { anyApi } from "convex/server";
import { expect, test } from "../../fixtures";
import { unique } from "../../env";
import { m, say } from "../../i18n";
import { requestKathmanduBooking, signedInAdmin } from "../../people";

// Demo accounts (convex/model/demoData.ts) no other spec suspends; restored at the end.
const PRO = { email: "cctv.kathmandu@demo.np", password: "demo-password-1", name: "Nabin Rai" };
const CUSTOMER = {
  email: "customer2@demo.np",
  password: "demo-password-1",
  name: "Bikash Shrestha",
};
const SERVICE = { category: "CCTV Camera Fitting", serviceName: "CCTV Repair & Maintenance" };

/**
 * Admin desk: suspending a professional whose job is under way. The admin sees the job before
 * confirming; the customer, on a phone in Nepali, reads who cancelled and why in Nepali, live, and
 * is offered another professional of the service in one tap.
 */
test("a professional suspended mid-job: the admin sees the job first, the customer is told in Nepali and offered another", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const { bookingId, professional } = await requestKathmanduBooking(CUSTOMER, PRO, SERVICE, 0.5);
  for (const step of ["accept", "startTrip", "arrive"])
    await professional.mutation(anyApi.bookings[step], { bookingId });

  const customer = await actor({ viewport: { width: 360, height: 740 }, locale: "ne-NP" });
  await customer.auth.login(CUSTOMER.email, CUSTOMER.password, "Customer");
  await customer.page.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
  const card = customer.page.getByRole("listitem").filter({
    hasText: say("ne-NP", m.card_cancelled_by_gharsewa),
  });
  await expect(customer.page.getByRole("heading", { level: 1 })).toBeVisible();

  const admin = await signedInAdmin(actor);
  await admin.page.goto("/admin/users");
  await admin.page.getByLabel("Search users").fill("Nabin");
  await admin.page.getByRole("link", { name: PRO.name }).first().click();
  const open = admin.page.getByText(/Open bookings this cancels \(1\)/).locator("..");
  await expect(open).toContainText(CUSTOMER.name);
  await expect(open).toContainText("CCTV Repair & Maintenance");
  await admin.page.screenshot({ path: "e2e/screenshots/admin-suspend-open-jobs-1280.png" });
  await admin.page
    .getByLabel("Reason for suspending (kept in the history)")
    .fill(`Checking a complaint ${unique()}`);
  await admin.page.getByRole("button", { name: "Suspend account" }).click();
  await expect(admin.page.getByText(/Open bookings this cancels/)).toHaveCount(0);

  // the customer's open page changes by itself: who, why, and what to do next, in Nepali
  await expect(card).toBeVisible();
  await expect(card).toContainText("घर सेवाले एक पक्षको खाता निलम्बन गरेको छ।");
  await expect(card).not.toContainText("suspended by GharSewa");
  const next = card.getByRole("link", { name: /अर्को/ });
  await expect(next).toBeVisible();
  await customer.page.screenshot({ path: "e2e/screenshots/customer-suspended-mid-job-360.png" });
  await next.click();
  await expect(customer.page).toHaveURL(/\/services\/search\?/);

  // restored for the other specs
  await admin.page
    .getByLabel("Reason for restoring (kept in the history)")
    .fill("The complaint was checked.");
  await admin.page.getByRole("button", { name: "Restore account" }).click();
  await expect(admin.page.getByRole("button", { name: "Suspend account" })).toBeVisible();
});
