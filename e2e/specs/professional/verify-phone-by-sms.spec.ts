import { E2E } from "../../env";
import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";
import { OutboxPage } from "../../pages/outbox-page";
import { newProfessional } from "../../people";

const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

for (const locale of LANGUAGES) {
  test(`the admin may verify a new professional only once their phone is verified by an SMS code, which the card shows at once (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(150_000);
    const pro = newProfessional("Electrician", "Nepalgunj");

    // signed up on a phone-sized screen
    const professional = await actor({ viewport: PHONE, locale });
    await professional.auth.signUpProfessional(pro);

    // the admin watches the technicians grid in another browser
    const admin = await actor({ viewport: DESKTOP, locale });
    const account = locale === "en" ? E2E.admin : E2E.adminNe;
    await admin.auth.adminLogin(account.username, account.password);
    await admin.page
      .getByLabel(say(locale, m.admin_filter_verification), { exact: true })
      .selectOption({ label: say(locale, m.admin_filter_unverified) });
    const card = admin.admin.technicianCard(pro.name);
    await expect(card).toContainText(say(locale, m.admin_phone_not_verified));
    // Verify is off, and says why
    const documents = await admin.admin.openTechnician(pro.name);
    const verify = documents.getByRole("button", {
      name: say(locale, m.admin_dialog_verify),
      exact: true,
    });
    await expect(verify).toBeDisabled();
    await expect(verify).toHaveAccessibleDescription(
      say(locale, m.admin_dialog_verify_needs_phone),
    );
    await expect(documents).toContainText(say(locale, m.admin_phone_not_verified));
    await admin.page.screenshot({ path: `test-results/verify-needs-phone-${locale}.png` });

    // the professional asks for a code, reads the SMS and types it back
    const p = professional.page;
    await p.goto("/professional/account?tab=security");
    const phoneRow = p.getByRole("listitem", { name: say(locale, m.label_phone_short) });
    await expect(phoneRow).toContainText(say(locale, m.cv_not_verified));
    const outbox = await OutboxPage.open(p);
    await phoneRow.getByRole("button", { name: say(locale, m.cv_send_sms) }).click();
    const code = await outbox.code("SMS", pro.phone);
    await outbox.close();
    const wrong = code === "000000" ? "111111" : "000000";
    await phoneRow.getByLabel(say(locale, m.reset_code)).fill(wrong);
    await phoneRow.getByRole("button", { name: say(locale, m.cv_confirm) }).click();
    await expect(phoneRow.getByRole("alert")).toHaveText(say(locale, m.cv_code_wrong));
    await phoneRow.getByLabel(say(locale, m.reset_code)).fill(code);
    await phoneRow.getByRole("button", { name: say(locale, m.cv_confirm) }).click();
    await expect(phoneRow).toContainText(say(locale, m.badge_verified));
    await expect(phoneRow.getByRole("button")).toHaveCount(0);
    await p.screenshot({ path: `test-results/verify-phone-${locale}.png`, fullPage: true });

    // the admin's open dialog and card change by themselves: Verify now works
    await expect(verify).toBeEnabled();
    await expect(documents).toContainText(say(locale, m.admin_phone_verified));
    await expect(card).toContainText(say(locale, m.admin_phone_verified));
    await expect(card).not.toContainText(say(locale, m.admin_phone_not_verified));
    await verify.click();
    await expect(
      admin.page.getByText(say(locale, m.admin_dialog_verified_toast, { name: pro.name })),
    ).toBeVisible();
    await expect(documents).toBeHidden();
    await admin.page.screenshot({ path: `test-results/verify-phone-card-${locale}.png` });
  });
}
