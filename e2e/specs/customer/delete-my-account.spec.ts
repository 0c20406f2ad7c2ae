import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";
import { newCustomer } from "../../people";

/*
 * Deleting the account asks for its password: a wrong one is said at the field and deletes nothing;
 * the right one deletes the account, signs out its other device at once (a second browser context,
 * no reload), and the old password no longer signs in.
 */

test.describe.configure({ timeout: 120_000 });

for (const locale of LANGUAGES) {
  test(`a customer deletes their account with their password (${locale})`, async ({ actor }) => {
    const l = locale;
    const user = newCustomer();
    const phone = await actor({ locale, viewport: { width: 360, height: 740 } });
    await phone.auth.signUpCustomer(user);
    const laptop = await actor({ locale, viewport: { width: 1280, height: 800 } });
    await laptop.auth.login(user.email, user.password, "Customer");

    const p = phone.page;
    await p.goto("/customer/profile?tab=delete");
    await p.getByRole("button", { name: say(l, m.acc_delete_button) }).click();
    const dialog = p.getByRole("dialog", { name: say(l, m.acc_delete_title) });
    const password = dialog.getByLabel(say(l, m.acc_delete_password), { exact: true });
    await password.fill("not-my-password");
    await dialog.getByRole("button", { name: say(l, m.acc_delete_yes) }).click();
    await expect(dialog.getByText(say(l, m.error_wrong_password))).toBeVisible();
    await p.screenshot({ path: `e2e/screenshots/delete-account-wrong-${l}-360.png` });

    await password.fill(user.password);
    await dialog.getByRole("button", { name: say(l, m.acc_delete_yes) }).click();
    await expect(p.getByText(say(l, m.acc_delete_done, { name: user.name }))).toBeVisible();
    // signed out here: the header offers the login again
    await expect(
      p
        .getByRole("banner")
        .getByRole("link", { name: say(l, m.nav_login), exact: true })
        .filter({ visible: true }),
    ).toBeVisible();

    // the other device is signed out by itself
    await expect(laptop.page.getByText(say(l, m.session_ended_here))).toBeVisible();
    await laptop.page.screenshot({ path: `e2e/screenshots/delete-account-other-${l}-1280.png` });

    await p.goto("/login");
    await p.getByLabel(say(l, m.label_email)).fill(user.email);
    await p.getByLabel(say(l, m.label_password), { exact: true }).fill(user.password);
    await p.getByRole("radio", { name: say(l, m.role_customer) }).check();
    await p.getByRole("button", { name: say(l, m.login_button) }).click();
    // English shows the spec's own words of the server; Nepali its translation
    const refused = l === "en" ? "Invalid email or password" : say(l, m.error_invalid_credentials);
    await expect(p.getByText(refused)).toBeVisible();
  });
}
