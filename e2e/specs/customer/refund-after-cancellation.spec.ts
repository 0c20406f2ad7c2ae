import { expect, test } from "../../fixtures";
import { unique } from "../../env";
import { m, say } from "../../i18n";
import { jobInProgress, payWithKhalti } from "../../money";
import {
  expectNoSidewaysScroll,
  newCustomer,
  newProfessional,
  signedInAdmin,
  signUpProfessional,
} from "../../people";

const PHONE = { width: 360, height: 800 };

/**
 * Money: a job paid with Khalti is cancelled by GharSewa (its professional is suspended mid-job).
 * The customer, on a phone in Nepali, sees the refund owed at once; the admin finds it among the
 * refunds due, refunds it in the merchant portal and records the reference; the customer sees it
 * refunded, live.
 */
test("refund after cancellation: owed at once, recorded by the admin, seen refunded live", async ({
  actor,
}) => {
  test.setTimeout(180_000);
  const admin = await signedInAdmin(actor);
  // a professional of this spec's own: suspending them touches no other spec
  const pro = newProfessional("Electrician", "Kathmandu");
  await signUpProfessional(await actor(), pro, admin);
  const me = newCustomer("Ward 10, New Baneshwor");
  const customer = await actor({ viewport: PHONE, locale: "ne-NP" });
  await customer.auth.signUpAndLogInCustomer(me);
  const { bookingId, asCustomer } = await jobInProgress(me, pro, {
    category: "Electrician",
    serviceName: "Light Fitting",
  });
  await payWithKhalti(asCustomer, bookingId);
  await customer.page.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
  const card = customer.page.locator('li[aria-current="true"]');
  await expect(card.getByText(say("ne-NP", m.bill_paid), { exact: true })).toBeVisible();
  const total = (await card.getByTestId("bill-total").textContent()) ?? "";

  // GharSewa suspends the professional: the paid job is cancelled
  await admin.page.goto("/admin/users");
  await admin.page.getByLabel("Search users").fill(pro.name);
  await admin.page.getByRole("link", { name: pro.name }).first().click();
  await admin.page
    .getByLabel("Reason for suspending (kept in the history)")
    .fill(`Checking a complaint ${unique()}`);
  await admin.page.getByRole("button", { name: "Suspend account" }).click();

  // the customer's card says what is owed to them, without a reload
  const refund = card.getByRole("status", { name: say("ne-NP", m.refund_title) });
  await expect(refund).toHaveText(say("ne-NP", m.refund_due_customer, { amount: total }));
  await expectNoSidewaysScroll(customer);
  await customer.page.screenshot({ path: "e2e/screenshots/refund-due-ne-360.png" });

  // the admin records the refund made in Khalti's merchant portal
  await admin.page.goto("/admin/payouts");
  const due = admin.page.getByRole("region", { name: say("en", m.refunds_title) });
  const row = due.getByRole("listitem", { name: me.name });
  await row.getByRole("button", { name: say("en", m.refunds_record) }).click();
  const form = row.getByRole("form", { name: say("en", m.refunds_form) });
  await form.getByRole("button", { name: say("en", m.refunds_record) }).click();
  await expect(form.getByText(/Give the reference/)).toBeVisible();
  const reference = `KHALTI-RF-${unique()}`;
  await form.getByLabel(say("en", m.payouts_reference)).fill(reference);
  await admin.page.screenshot({ path: "e2e/screenshots/refunds-due-en-1280.png" });
  await form.getByRole("button", { name: say("en", m.refunds_record) }).click();
  await expect(row).toHaveCount(0);

  await expect(refund).toContainText(reference);
  await expect(refund).toContainText(total);
  await customer.page.screenshot({ path: "e2e/screenshots/refund-refunded-ne-360.png" });
  await admin.page.setViewportSize(PHONE);
  await admin.page.screenshot({ path: "e2e/screenshots/refunds-none-en-360.png", fullPage: true });
});
