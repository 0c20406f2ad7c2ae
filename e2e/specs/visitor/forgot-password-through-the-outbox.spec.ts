import { expect, test, type Actor } from "../../fixtures";
import { unique } from "../../env";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import { OutboxPage } from "../../pages/outbox-page";
import { customerAccount, professionalAccount } from "../../people";

/*
 * Forgot password, read off the outbox as a person reads their mail or SMS: a customer by email from
 * /login, a professional by mobile number from /professional-signin, in English and in Nepali. The
 * reset signs the person in; the new password works on another device and the old one no longer does.
 * Once their phone is verified, each signs in on yet another device by a code sent by SMS instead.
 */

const mobile = () => `98${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

async function resetThroughOutbox(
  person: Actor,
  contact: string,
  kind: "Email" | "SMS",
  newPassword: string,
) {
  const { page, locale: l } = person;
  await page.getByLabel(say(l, m.field_contact)).fill(contact);
  await page.getByRole("button", { name: say(l, m.action_send_code) }).click();
  await expect(page.getByText(say(l, m.reset_code_sent, { contact, minutes: 15 }))).toBeVisible();
  const outbox = await OutboxPage.open(page);
  const code = await outbox.code(kind, contact);
  await outbox.close();
  await page.getByLabel(say(l, m.reset_code)).fill(code);
  await page.getByLabel(say(l, m.reset_new_password), { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: say(l, m.reset_set_password) }).click();
  await expect(page.getByText(say(l, m.reset_done))).toBeVisible();
}

for (const locale of LANGUAGES) {
  const options = (width: number) => ({ locale, viewport: { width, height: 800 } });

  test(`a customer resets a forgotten password with an emailed code, later signs in by SMS code (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(150_000);
    const id = unique();
    const email = `forgot.${id}@example.np`;
    const number = mobile();
    await customerAccount({
      name: "Sita Forgetful",
      email,
      phone: number,
      password: "old-password-1",
      address: "Ward 4, Baneshwor",
      zipCode: "44600",
    });
    // signed up, on a phone she has forgotten the password
    const phone = await actor(options(360));
    await phone.page.goto("/login");
    await phone.page.getByRole("link", { name: say(locale, m.reset_forgot_link) }).click();
    await expect(
      phone.page.getByRole("heading", { name: say(locale, m.reset_title) }),
    ).toBeVisible();
    await phone.page.screenshot({ path: `e2e/screenshots/forgot-password-${locale}-360.png` });
    await resetThroughOutbox(phone, email, "Email", "new-password-1");
    await expect(phone.page).toHaveURL("/");

    const laptop = await actor(options(1280));
    await laptop.auth.login(email, "new-password-1", "Customer");
    const notice = await OutboxPage.open(laptop.page);
    await expect(notice.message("Email", email)).toContainText(
      locale === "en" ? "Your GharSewa password was changed" : "पासवर्ड परिवर्तन भयो",
    );
    await notice.close();

    // her phone verified, she signs in on a new phone by an SMS code (a wrong one first)
    await laptop.auth.verifyPhone(number, "customer");
    const newPhone = await actor(options(360));
    await newPhone.page.goto("/login");
    await newPhone.auth.signInByCode(number, { wrongFirst: true });
    await expect(newPhone.page).toHaveURL("/");
    await newPhone.page.screenshot({ path: `test-results/code-signin-${locale}-360.png` });
  });

  test(`a professional resets a forgotten password with a code by SMS, later signs in by one (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(150_000);
    const id = unique();
    const phone = mobile();
    await professionalAccount({
      name: "Bishnu Forgetful",
      email: `forgot.pro.${id}@example.np`,
      phone,
      password: "old-password-1",
      address: "Lakeside-6, Pokhara",
      zipCode: "33700",
      city: "Pokhara",
      state: "Gandaki",
      specialty: "Carpenter",
    });
    // signed up, in a browser the password is forgotten
    const laptop = await actor(options(1280));
    await laptop.page.goto("/professional-signin");
    await laptop.page.getByRole("link", { name: say(locale, m.reset_forgot_link) }).click();
    await expect(laptop.page).toHaveURL("/forgot-password?role=professional");
    await resetThroughOutbox(laptop, phone, "SMS", "new-password-1");
    await expect(laptop.page).toHaveURL("/professional-dashboard");
    await laptop.page.screenshot({
      path: `e2e/screenshots/forgot-password-pro-${locale}-1280.png`,
    });

    const phoneDevice = await actor(options(360));
    await phoneDevice.page.goto("/professional-signin");
    await phoneDevice.page
      .getByLabel(say(locale, m.label_email))
      .fill(`forgot.pro.${id}@example.np`);
    await phoneDevice.page
      .getByLabel(say(locale, m.label_password), { exact: true })
      .fill("old-password-1");
    await phoneDevice.page.getByRole("button", { name: say(locale, m.signin_button) }).click();
    await expect(phoneDevice.page.getByRole("alert")).toBeVisible();
    await phoneDevice.auth.professionalSignIn(`forgot.pro.${id}@example.np`, "new-password-1");

    // the phone verified, a new laptop signs in by an SMS code from /professional-signin
    await phoneDevice.auth.verifyPhone(phone);
    const newLaptop = await actor(options(1280));
    await newLaptop.page.goto("/professional-signin");
    await newLaptop.auth.signInByCode(phone);
    await expect(newLaptop.page).toHaveURL("/professional-dashboard");
    await newLaptop.page.screenshot({ path: `test-results/code-signin-pro-${locale}-1280.png` });
  });
}

test("the admin login says how an admin gets back in", async ({ actor }) => {
  for (const locale of LANGUAGES satisfies readonly Locale[]) {
    const admin = await actor({ locale });
    await admin.page.goto("/admin-login");
    await expect(admin.page.getByText(say(locale, m.admin_login_forgot))).toBeVisible();
  }
});
