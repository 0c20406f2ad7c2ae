import { createAdminWithSetupLink } from "../../create-admin";
import { unique } from "../../env";
import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";
import { codeAt, currentStep } from "../../two-factor";

const PHONE = { width: 360, height: 800 };

for (const locale of LANGUAGES) {
  test(`a new admin sets a password and an authenticator from the one-time link, which works once (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(120_000);
    const username = `setup-${unique()}`;
    const password = `setup password ${unique()}`;
    const link = createAdminWithSetupLink(username);

    const admin = await actor({ viewport: PHONE, locale });
    const p = admin.page;
    await p.goto(link);
    await expect(p.getByRole("heading", { name: say(locale, m.admin_setup_title) })).toBeVisible();
    await p.getByLabel(say(locale, m.reset_new_password)).fill(password);
    await p.getByRole("button", { name: say(locale, m.admin_setup_submit) }).click();

    // signed in by the link, the admin sets up the authenticator before the panel opens
    await expect(p.getByRole("heading", { name: say(locale, m.tf_title) })).toBeVisible();
    await expect(p.getByRole("navigation")).toHaveCount(0);
    await p.getByRole("button", { name: say(locale, m.tf_setup_start) }).click();
    const key = (await p.getByTestId("two-factor-key").innerText()).replace(/\s/g, "");
    const step = currentStep();
    await p.getByLabel(say(locale, m.tf_code)).fill(codeAt(key, step));
    await p.getByRole("button", { name: say(locale, m.tf_confirm) }).click();
    await expect(
      p.getByRole("list", { name: say(locale, m.tf_codes_list) }).getByRole("listitem"),
    ).toHaveCount(10);
    await p.getByRole("button", { name: say(locale, m.tf_codes_saved) }).click();
    await expect(p.getByRole("navigation")).toBeVisible();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // the password set through the link signs in, with the authenticator's next code
    const again = await actor({ viewport: PHONE, locale });
    await again.auth.adminLogin(username, password, async () =>
      codeAt(key, Math.max(currentStep(), step + 1)),
    );
    await expect(again.page.getByRole("navigation")).toBeVisible();

    // the link is spent
    const late = await actor({ viewport: PHONE, locale });
    await late.page.goto(link);
    await late.page.getByLabel(say(locale, m.reset_new_password)).fill(`other ${password}`);
    await late.page.getByRole("button", { name: say(locale, m.admin_setup_submit) }).click();
    await expect(late.page.getByRole("alert")).toHaveText(say(locale, m.error_invalid_setup_link));
  });
}
