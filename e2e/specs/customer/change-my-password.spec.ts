import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";
import { OutboxPage } from "../../pages/outbox-page";
import { expectSignedOutLive, SecurityPanel } from "../../pages/security-panel";
import { newCustomer, newProfessional } from "../../people";

/*
 * Change password while signed in: the current one is required; the device that changes it stays
 * signed in, every other device is signed out the moment it happens (two browser contexts, no
 * reload), and the account is told by email. A customer in English, a professional in Nepali.
 */

// two sign-ups or sign-ins, two password hashes and the outbox: over a minute on a busy machine
test.describe.configure({ timeout: 120_000 });

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1280, height: 800 };

test("a customer changes their password; their other device is signed out at once", async ({
  actor,
}) => {
  const user = newCustomer();
  const phone = await actor({ viewport: PHONE });
  await phone.auth.signUpCustomer(user);
  const laptop = await actor({ viewport: LAPTOP });
  await laptop.auth.login(user.email, user.password, "Customer");

  const security = new SecurityPanel(phone.page, phone.locale);
  await security.open(SecurityPanel.customer);
  await security.changePassword("not-my-password", "customer-password-2");
  await expect(phone.page.getByText(say("en", m.error_wrong_password))).toBeVisible();
  await security.changePassword(user.password, "customer-password-2");
  await expect(phone.page.getByText(say("en", m.security_password_changed))).toBeVisible();
  await phone.page.screenshot({ path: "e2e/screenshots/change-password-en-360.png" });

  await expectSignedOutLive(laptop);
  await laptop.page.screenshot({ path: "e2e/screenshots/change-password-signed-out-en-1280.png" });
  // the phone that changed it is still signed in
  await phone.page.reload();
  await expect(security.changeForm()).toBeVisible();

  await laptop.auth.login(user.email, "customer-password-2", "Customer");
  const notice = await OutboxPage.open(laptop.page);
  await expect(notice.message("Email", user.email)).toContainText(
    "Your GharSewa password was changed",
  );
});

test("a professional changes their password from their account page, in Nepali", async ({
  actor,
}) => {
  const pro = newProfessional("Plumber", "Pokhara");
  const laptop = await actor({ viewport: LAPTOP, locale: "ne-NP" });
  await laptop.auth.signUpProfessional(pro);
  const phone = await actor({ viewport: PHONE, locale: "ne-NP" });
  await phone.auth.professionalSignIn(pro.email, pro.password);

  const security = new SecurityPanel(laptop.page, "ne-NP");
  await security.open(SecurityPanel.professional);
  await security.changePassword(pro.password, "pro-password-2");
  await expect(laptop.page.getByText(say("ne-NP", m.security_password_changed))).toBeVisible();
  await laptop.page.screenshot({ path: "e2e/screenshots/change-password-pro-ne-1280.png" });

  await expectSignedOutLive(phone);
  await phone.page.screenshot({ path: "e2e/screenshots/change-password-signed-out-ne-360.png" });
  await phone.auth.professionalSignIn(pro.email, "pro-password-2");
});
