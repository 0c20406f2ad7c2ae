import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";
import { expectSignedOutLive, SecurityPanel } from "../../pages/security-panel";
import { newCustomer } from "../../people";

/*
 * Devices, live in two browser contexts: a laptop's sign-in appears in the phone's list without a
 * reload, and signing the phone out from the laptop ends the phone's session at once (it is told, and
 * offered the login) while the laptop's list drops it.
 */

test.describe.configure({ timeout: 120_000 });

for (const locale of LANGUAGES) {
  test(`a customer sees their devices live and signs one out from another (${locale})`, async ({
    actor,
  }) => {
    const user = newCustomer();
    const phone = await actor({ viewport: { width: 360, height: 740 }, locale });
    await phone.auth.signUpCustomer(user);
    const phoneSecurity = new SecurityPanel(phone.page, phone.locale);
    await phoneSecurity.open(SecurityPanel.customer);
    await expect(phoneSecurity.devices()).toHaveCount(1);

    const laptop = await actor({ viewport: { width: 1280, height: 800 }, locale });
    await laptop.auth.login(user.email, user.password, "Customer");
    // the phone's list shows the laptop's sign-in by itself
    await expect(phoneSecurity.devices()).toHaveCount(2);
    await expect(phoneSecurity.thisDevice()).toHaveCount(1);
    await phone.page.screenshot({
      path: `e2e/screenshots/devices-${locale}-360.png`,
      fullPage: true,
    });

    const laptopSecurity = new SecurityPanel(laptop.page, laptop.locale);
    await laptopSecurity.open(SecurityPanel.customer);
    await expect(laptopSecurity.devices()).toHaveCount(2);
    await expect(laptopSecurity.thisDevice()).toContainText(
      say(locale, m.devices_label, { browser: "Chrome", system: "Windows" }), // Playwright's Desktop Chrome
    );
    await laptop.page.screenshot({
      path: `e2e/screenshots/devices-${locale}-1280.png`,
      fullPage: true,
    });
    await laptopSecurity.signOutOtherDevice();

    await expectSignedOutLive(phone);
    await expect(laptopSecurity.devices()).toHaveCount(1);
    await phone.page.screenshot({ path: `e2e/screenshots/devices-signed-out-${locale}-360.png` });
  });
}
