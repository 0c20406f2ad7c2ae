import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";
import { WalletPages } from "../../pages/wallet-pages";
import { kathmanduJobUnderWay, newCustomer } from "../../people";

const PHONE = { width: 360, height: 800 };

test("cancelled at eSewa, expired at Khalti: each says so, nothing is paid, and a retry pays", async ({
  actor,
}) => {
  test.setTimeout(150_000);
  const customer = await actor({ viewport: PHONE });
  const me = newCustomer("Ward 10, New Baneshwor");
  await customer.auth.signUpAndLogInCustomer(me);
  await kathmanduJobUnderWay(me);
  const c = customer.page;
  const wallet = new WalletPages(c);
  // the return page and the bill's pay section both say how the last attempt ended
  const outcome = (text: string) => c.getByRole("status").filter({ hasText: text }).first();

  await customer.account.openBookings();
  await c.getByRole("button", { name: "Pay with eSewa" }).click();
  await wallet.cancel();
  await expect(c).toHaveURL(/\/pay\/esewa\/[A-Za-z0-9-]+\/failed$/);
  await expect(outcome(say("en", m.pay_state_canceled, { wallet: "eSewa" }))).toBeVisible();
  await c.screenshot({ path: "e2e/screenshots/esewa-cancelled-en.png" });

  // the retry on the return page: Khalti this time, left to expire
  await c.getByRole("button", { name: "Pay with Khalti" }).click();
  await wallet.letExpire();
  await expect(outcome(say("en", m.pay_state_expired, { wallet: "Khalti" }))).toBeVisible();

  // and again, cancelled at Khalti, then paid
  await c.getByRole("button", { name: "Pay with Khalti" }).click();
  await wallet.cancel();
  await expect(outcome(say("en", m.pay_state_canceled, { wallet: "Khalti" }))).toBeVisible();
  await c.getByRole("button", { name: "Pay with Khalti" }).click();
  await wallet.payWithKhalti();
  await expect(outcome("Paid with Khalti.")).toBeVisible();
  await expect(c.getByRole("button", { name: "Pay with Khalti" })).toHaveCount(0);
});
