import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";

/*
 * People in Nepal know their mobile number better than an email: the sign-in pages take either,
 * written as people write it (country code, dashes, spaces), with the password.
 */

const SIGNED_IN = { timeout: 30_000 };
/** professional@demo.np's number (convex/model/demoData.ts), written with a space */
const PRO_PHONE = "98580 11111";

for (const locale of LANGUAGES) {
  test(`a customer signs in with their mobile number as they write it (${locale})`, async ({
    actor,
  }) => {
    const customer = await actor({ viewport: { width: 360, height: 740 }, locale });
    const p = customer.page;
    await p.goto("/login");
    await p.getByLabel(say(locale, m.field_contact)).fill("+977 984-8012345");
    await p.getByLabel(say(locale, m.label_password), { exact: true }).fill("demo-password-1");
    await p.getByRole("radio", { name: say(locale, m.role_customer) }).check();
    await p.getByRole("button", { name: say(locale, m.login_button) }).click();
    await expect(p).toHaveURL("/", SIGNED_IN);
    await expect(
      p.getByRole("button", { name: say(locale, m.nav_account_menu, { name: "Sita Sharma" }) }),
    ).toBeVisible();
    await p.screenshot({ path: `e2e/screenshots/mobile-number-sign-in-${locale}-360.png` });
  });
}

test("a professional signs in with their mobile number on the professional sign-in", async ({
  actor,
}) => {
  const pro = await actor({ viewport: { width: 1280, height: 800 } });
  const p = pro.page;
  await p.goto("/professional-signin");
  await p.getByLabel(say("en", m.field_contact)).fill(PRO_PHONE);
  await p.getByLabel(say("en", m.label_password), { exact: true }).fill("demo-password-1");
  await p.getByRole("button", { name: say("en", m.signin_button) }).click();
  await expect(p).toHaveURL("/professional-dashboard", SIGNED_IN);
  // a wrong password by number answers as by email, naming neither
  const other = await actor({ viewport: { width: 1280, height: 800 } });
  await other.page.goto("/professional-signin");
  await other.page.getByLabel(say("en", m.field_contact)).fill(PRO_PHONE);
  await other.page
    .getByLabel(say("en", m.label_password), { exact: true })
    .fill("not-the-password");
  await other.page.getByRole("button", { name: say("en", m.signin_button) }).click();
  await expect(other.page.getByRole("alert")).toContainText("Invalid email or password");
});
