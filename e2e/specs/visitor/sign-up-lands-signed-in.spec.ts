import { newCustomer, newProfessional } from "../../people";
import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";

/*
 * A new account is signed in by its sign-up and starts on its role's home: a customer on the home
 * page, a professional on their dashboard; a professional who logs in on /login goes straight to
 * the dashboard too. On a Nepali phone.
 */

const l = "ne-NP";
const PHONE = { locale: l, viewport: { width: 360, height: 740 } } as const;

test("a new customer is signed in after sign-up, on the home page", async ({ actor }) => {
  const customer = await actor(PHONE);
  const user = newCustomer();
  const p = customer.page;
  await p.goto("/user-signup");
  await customer.auth.fillAccount(user);
  await p.getByRole("button", { name: say(l, m.signup_button) }).click();
  await expect(p).toHaveURL("/", { timeout: 20_000 });
  await expect(p.getByText(say(l, m.signup_success))).toBeVisible();
  await p.screenshot({ path: "e2e/screenshots/sign-up/customer-home-ne-360.png" });
  // signed in: their account opens without a login
  await p.goto("/customer/profile");
  await expect(p.getByRole("heading", { name: user.name })).toBeVisible();
});

test("a new professional is signed in after sign-up, on their dashboard; /login leads there too", async ({
  actor,
}) => {
  test.setTimeout(90_000);
  const pro = newProfessional("Electrician", "Nepalgunj");
  const person = await actor(PHONE);
  const p = person.page;
  await person.auth.signUpProfessional(pro); // waits for /professional-dashboard
  await person.dashboard.openSection(m.dash_tab_hours);
  await expect(p.getByText(say(l, m.pc_help_unverified))).toBeVisible();
  await p.screenshot({ path: "e2e/screenshots/sign-up/professional-dashboard-ne-360.png" });

  // on another phone, logging in on /login as a professional opens the dashboard at once
  const phone = await actor(PHONE);
  await phone.page.goto("/login");
  await phone.page.getByLabel(say(l, m.label_email)).fill(pro.email);
  await phone.page.getByLabel(say(l, m.label_password), { exact: true }).fill(pro.password);
  await phone.page.getByRole("radio", { name: say(l, m.role_professional) }).check();
  await phone.page.getByRole("button", { name: say(l, m.login_button) }).click();
  await expect(phone.page).toHaveURL("/professional-dashboard");
  await phone.dashboard.openSection(m.dash_tab_hours);
  await expect(phone.dashboard.accountStatus()).toBeVisible();
});
