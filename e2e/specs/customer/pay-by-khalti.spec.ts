import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import { WalletPages } from "../../pages/wallet-pages";
import { kathmanduJobUnderWay, expectNoSidewaysScroll, newCustomer } from "../../people";

const VIEWPORTS = { en: { width: 1280, height: 800 }, "ne-NP": { width: 360, height: 800 } };

const paidText = (locale: Locale, wallet: string) =>
  say(locale, m.pay_state_paid, { wallet, id: "#" }).split("#")[0]!;

for (const locale of LANGUAGES) {
  test(`a customer pays a booking's bill with Khalti and sees it paid (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(120_000);
    const customer = await actor({ viewport: VIEWPORTS[locale], locale });
    const me = newCustomer("Ward 10, New Baneshwor");
    await customer.auth.signUpAndLogInCustomer(me);
    await kathmanduJobUnderWay(me);

    const c = customer.page;
    await customer.account.openBookings();
    await c.getByRole("button", { name: say(locale, m.pay_with_khalti) }).click();
    const wallet = new WalletPages(c);
    await expect(wallet.amount()).toHaveText(/^Rs\. \d+\.\d{2}$/);
    await c.screenshot({ path: `e2e/screenshots/khalti-stand-in-${locale}.png` });
    await wallet.payWithKhalti();

    await expect(c).toHaveURL(/\/pay\/khalti\?pidx=/);
    const name = say(locale, m.method_khalti);
    await expect(c.getByRole("status").filter({ hasText: paidText(locale, name) })).toBeVisible();
    await expectNoSidewaysScroll(customer);
    await c.screenshot({ path: `e2e/screenshots/khalti-paid-${locale}.png` });
    await c.getByRole("link", { name: say(locale, m.pay_back_to_bookings) }).click();
    await expect(c.getByRole("button", { name: say(locale, m.pay_with_khalti) })).toHaveCount(0);

    // the receipt names Khalti's transaction id and GharSewa as paid
    await c.getByRole("link", { name: say(locale, m.receipt_title) }).click();
    const receipt = c.getByRole("article", { name: say(locale, m.receipt_title) });
    await expect(receipt.getByTestId("receipt-number")).toHaveText(/^GS-\d{6}$/);
    await expect(receipt).toContainText(say(locale, m.receipt_gateway_id, { method: name }));
    await expect(receipt).toContainText(say(locale, m.receipt_paid_to_platform, { method: name }));
    await expectNoSidewaysScroll(customer);
    await c.screenshot({ path: `e2e/screenshots/receipt-khalti-${locale}.png`, fullPage: true });
  });
}
