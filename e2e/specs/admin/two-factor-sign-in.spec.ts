import { createAdmin } from "../../create-admin";
import { unique } from "../../env";
import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";
import { codeAt, currentStep } from "../../two-factor";

const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

for (const locale of LANGUAGES) {
  test(`a new admin sets up an authenticator before the panel opens, then signs in with a code and with a recovery code (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(150_000);
    const account = { username: `tf-${unique()}`, password: `tf password ${unique()}` };
    createAdmin(account);

    // a second device signed in with the password alone, before two-factor is on
    const laptop = await actor({ viewport: DESKTOP, locale });
    await laptop.auth.adminLogin(account.username, account.password);
    await expect(laptop.page.getByRole("heading", { name: say(locale, m.tf_title) })).toBeVisible();

    // the admin's phone-sized browser is sent to set up the authenticator app first
    const admin = await actor({ viewport: locale === "en" ? PHONE : DESKTOP, locale });
    const p = admin.page;
    await admin.auth.adminLogin(account.username, account.password);
    await expect(p.getByRole("heading", { name: say(locale, m.tf_title) })).toBeVisible();
    await expect(p.getByRole("navigation")).toHaveCount(0);
    await p.getByRole("button", { name: say(locale, m.tf_setup_start) }).click();
    await expect(p.getByRole("img", { name: say(locale, m.tf_qr_label) })).toBeVisible();
    const key = (await p.getByTestId("two-factor-key").innerText()).replace(/\s/g, "");
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    await p.screenshot({ path: `test-results/two-factor-setup-${locale}.png`, fullPage: true });

    // a wrong code is refused; the app's current code turns two-factor on
    const codeField = p.getByLabel(say(locale, m.tf_code));
    await codeField.fill("000000");
    await p.getByRole("button", { name: say(locale, m.tf_confirm) }).click();
    await expect(p.getByRole("alert")).toHaveText(say(locale, m.tf_code_wrong));
    let step = currentStep();
    await codeField.fill(codeAt(key, step));
    await p.getByRole("button", { name: say(locale, m.tf_confirm) }).click();
    const codes = p.getByRole("list", { name: say(locale, m.tf_codes_list) }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    const recoveryCodes = await codes.allInnerTexts();
    await p.screenshot({ path: `test-results/two-factor-codes-${locale}.png`, fullPage: true });

    // the device signed in with the password alone is signed out at once
    await expect(laptop.page).toHaveURL("/admin-login");

    // the codes stay until put away; then the panel opens
    await p.getByRole("button", { name: say(locale, m.tf_codes_saved) }).click();
    await expect(p.getByRole("navigation")).toBeVisible();

    // signing in again: the password alone is not enough, the next code is
    let asked = 0;
    const laptopNext = async () => {
      asked++;
      step = Math.max(currentStep(), step + 1);
      return codeAt(key, step);
    };
    await laptop.auth.adminLogin(account.username, account.password, laptopNext);
    await expect(laptop.page.getByRole("navigation")).toBeVisible();

    // a recovery code signs in once, on yet another device
    const spare = await actor({ viewport: DESKTOP, locale });
    await spare.auth.adminLogin(account.username, account.password, async () => {
      asked++;
      return recoveryCodes[0]!;
    });
    expect(asked).toBe(2);
    await spare.page.goto("/admin/account");
    await expect(
      spare.page.getByText(say(locale, m.tf_codes_left, { count: locale === "en" ? "9" : "९" })),
    ).toBeVisible();
    await spare.page.setViewportSize(PHONE);
    await spare.page.screenshot({
      path: `test-results/two-factor-account-${locale}.png`,
      fullPage: true,
    });
  });
}
