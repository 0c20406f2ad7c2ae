import { expect, test, type Actor } from "../../fixtures";
import { m, say } from "../../i18n";
import { payWithKhalti } from "../../money";
import {
  expectNoSidewaysScroll,
  kathmanduJobUnderWay,
  newCustomer,
  signedInAdmin,
  signedInClient,
} from "../../people";

const PHONE = { width: 360, height: 800 };

const card = (p: Actor) => p.page.locator('li[aria-current="true"]');

/**
 * GharSewa cancels a paid job from the booking's admin page, with a reason: the customer (Nepali,
 * phone) sees it cancelled, with the reason and the refund owed, without a reload.
 */
test("an admin cancels a paid booking: the customer sees it cancelled and the refund owed, live", async ({
  actor,
}) => {
  test.setTimeout(180_000);
  const admin = await signedInAdmin(actor);
  const customer = await actor({ viewport: PHONE, locale: "ne-NP" });
  const me = newCustomer("Ward 10, New Baneshwor");
  await customer.auth.signUpAndLogInCustomer(me);
  const bookingId = await kathmanduJobUnderWay(me);
  await payWithKhalti(await signedInClient("customer", me), bookingId);
  await customer.page.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
  const total = (await card(customer).getByTestId("bill-total").textContent()) ?? "";

  await admin.page.goto(`/admin/bookings/${bookingId}`);
  await admin.page.getByRole("button", { name: say("en", m.cancel_confirm) }).click();
  const dialog = admin.page.getByRole("dialog");
  await expect(dialog).toContainText(say("en", m.cancel_admin_text));
  await dialog.getByRole("button", { name: say("en", m.cancel_confirm) }).click();
  await expect(dialog.getByText(/at least/)).toBeVisible();
  const reason = "The professional reported a family emergency.";
  await dialog.getByLabel(say("en", m.label_reason)).fill(reason);
  await admin.page.screenshot({ path: "e2e/screenshots/admin-cancel-en-1280.png" });
  await dialog.getByRole("button", { name: say("en", m.cancel_confirm) }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.page.getByRole("button", { name: say("en", m.cancel_confirm) })).toHaveCount(
    0,
  );

  // the customer's card, live: cancelled with GharSewa's reason, the payment owed back
  await expect(card(customer)).toContainText(reason);
  const refund = card(customer).getByRole("status", { name: say("ne-NP", m.refund_title) });
  await expect(refund).toHaveText(say("ne-NP", m.refund_due_customer, { amount: total }));
  await expectNoSidewaysScroll(customer);
  await customer.page.screenshot({ path: "e2e/screenshots/admin-cancel-refund-ne-360.png" });
});
