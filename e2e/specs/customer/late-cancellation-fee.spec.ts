import { expect, test, type Actor } from "../../fixtures";
import { m, say } from "../../i18n";
import { payWithKhalti } from "../../money";
import {
  expectNoSidewaysScroll,
  KATHMANDU_ELECTRICIAN,
  kathmanduJobOnTheWay,
  newCustomer,
  signedInClient,
} from "../../people";

const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 800 };

const card = (p: Actor) => p.page.locator('li[aria-current="true"]');
const bill = (p: Actor) => card(p).getByRole("region", { name: say(p.locale, m.bill_title) });

/**
 * A customer in Nepali on a phone cancels once the professional is on the way: the dialog shows the
 * late-cancellation fee before they confirm; the bill becomes the fee, seen live by the professional
 * (English, desktop), and paid with Khalti it shows paid on both screens.
 */
test("late cancellation: the fee is shown first, billed, seen live by the professional and paid", async ({
  actor,
}) => {
  test.setTimeout(150_000);
  const customer = await actor({ viewport: PHONE, locale: "ne-NP" });
  const me = newCustomer("Ward 10, New Baneshwor");
  await customer.auth.signUpAndLogInCustomer(me);
  const bookingId = await kathmanduJobOnTheWay(me);
  const pro = await actor({ viewport: DESKTOP, locale: "en" });
  await pro.auth.professionalSignIn(KATHMANDU_ELECTRICIAN.email, KATHMANDU_ELECTRICIAN.password);
  await customer.page.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
  await pro.page.goto(`/professional-dashboard?section=jobs&booking=${bookingId}`);
  await expect(card(pro)).toBeVisible();

  await card(customer)
    .getByRole("button", { name: say("ne-NP", m.cancel_confirm) })
    .click();
  const dialog = customer.page.getByRole("dialog");
  const fee = say("ne-NP", m.cancel_fee_confirm, { amount: "रु. २००" });
  await expect(dialog.getByRole("alert")).toContainText("रु. २००");
  await dialog.getByLabel(say("ne-NP", m.label_reason)).fill("अरू नै मिस्त्री भेटियो, माफ गर्नुहोस्।");
  await expectNoSidewaysScroll(customer);
  await customer.page.screenshot({ path: "e2e/screenshots/late-cancel-fee-ne-360.png" });
  await dialog.getByRole("button", { name: fee }).click();
  await expect(dialog).toBeHidden();

  // the bill is the fee alone, on both screens, without a reload
  await expect(bill(customer).getByTestId("bill-total")).toHaveText("रु. २००");
  await expect(
    bill(customer).getByText(say("ne-NP", m.bill_fee_label), { exact: true }),
  ).toBeVisible();
  await expect(bill(pro).getByTestId("bill-total")).toHaveText("Nrs. 200");
  await expect(bill(pro).getByText(say("en", m.bill_fee_note_pro))).toBeVisible();
  await customer.page.screenshot({ path: "e2e/screenshots/late-cancel-bill-ne-360.png" });
  await pro.page.screenshot({ path: "e2e/screenshots/late-cancel-bill-en-1280.png" });

  await payWithKhalti(await signedInClient("customer", me), bookingId);
  await expect(bill(customer).getByText(say("ne-NP", m.bill_paid), { exact: true })).toBeVisible();
  await expect(bill(pro).getByText(say("en", m.bill_paid), { exact: true })).toBeVisible();
});
