import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import { WalletPages } from "../../pages/wallet-pages";
import { kathmanduJobUnderWay, expectNoSidewaysScroll, newCustomer } from "../../people";

const VIEWPORTS = { en: { width: 360, height: 800 }, "ne-NP": { width: 1280, height: 800 } };

/** The paid message up to the gateway's transaction id. */
const paidText = (locale: Locale, wallet: string) =>
  say(locale, m.pay_state_paid, { wallet, id: "#" }).split("#")[0]!;

for (const locale of LANGUAGES) {
  test(`a customer pays a booking's bill with eSewa, once, and sees it live (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(120_000);
    const customer = await actor({ viewport: VIEWPORTS[locale], locale });
    const me = newCustomer("Ward 10, New Baneshwor");
    await customer.auth.signUpAndLogInCustomer(me);
    await kathmanduJobUnderWay(me);
    // the same customer's other device watches My Bookings while they pay
    const other = await actor({ viewport: VIEWPORTS[locale], locale });
    await other.auth.login(me.email, me.password, "Customer");
    await other.account.openBookings();
    const otherButton = other.page.getByRole("button", { name: say(locale, m.pay_with_esewa) });
    await expect(otherButton).toBeVisible();

    const c = customer.page;
    await customer.account.openBookings();
    await c.getByRole("button", { name: say(locale, m.pay_with_esewa) }).click();
    const wallet = new WalletPages(c);
    await expect(wallet.amount()).toHaveText(/^Rs\. [\d,]+\.\d+$/);
    await c.screenshot({ path: `e2e/screenshots/esewa-stand-in-${locale}.png` });
    await wallet.payWithEsewa();

    await expect(c).toHaveURL(/\/pay\/esewa\/[A-Za-z0-9-]+\?data=/);
    const wallName = say(locale, m.method_esewa);
    await expect(
      c.getByRole("status").filter({ hasText: paidText(locale, wallName) }),
    ).toBeVisible();
    await expectNoSidewaysScroll(customer);
    await c.screenshot({ path: `e2e/screenshots/esewa-paid-${locale}.png` });
    // the other device saw the bill paid without reloading: its pay buttons went away
    await expect(otherButton).toHaveCount(0);

    // the return opened again (a replay) changes nothing and still reads paid
    await c.reload();
    await expect(
      c.getByRole("status").filter({ hasText: paidText(locale, wallName) }),
    ).toBeVisible();
    await expect(c.getByRole("button", { name: say(locale, m.pay_with_esewa) })).toHaveCount(0);
  });
}
