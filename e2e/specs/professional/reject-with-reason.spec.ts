import { expect, test } from "../../fixtures";
import { E2E, unique } from "../../env";
import { m, say } from "../../i18n";
import {
  bookAt,
  kathmanduDay,
  newProfessional,
  signedInAdmin,
  signUpProfessional,
} from "../../people";

const PHONE = { width: 360, height: 740 };

test("Reject asks first with an optional reason; the customer reads it and finds the next professionals in one tap", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const admin = await signedInAdmin(actor);
  const pro = newProfessional("Electrician", "Nepalgunj");
  const professional = await actor({ viewport: PHONE, locale: "ne-NP" });
  await signUpProfessional(professional, pro, admin);
  await professional.auth.professionalSignIn(pro.email, pro.password);
  const l = professional.locale;
  const pp = professional.page;

  const customer = await actor({ viewport: PHONE });
  await customer.auth.login("customer3@demo.np", "demo-password-1", "Customer");
  const note = `Reject me ${unique()}`;
  await bookAt(customer, pro.name, `${kathmanduDay(3).date}T12:00`, note);

  const request = professional.dashboard.booking(note);
  const dialog = pp.getByRole("dialog", { name: say(l, m.reject_title) });
  // one tap does not decline: it asks, and going back keeps the request
  await request.getByRole("button", { name: say(l, m.step_reject) }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: say(l, m.reject_keep) }).click();
  await expect(dialog).toBeHidden();
  await expect(
    request.getByRole("button", { name: say(l, m.step_accept), exact: true }),
  ).toBeVisible();

  await request.getByRole("button", { name: say(l, m.step_reject) }).click();
  await dialog.getByLabel(say(l, m.reject_reason)).fill("Out of town that day");
  await pp.screenshot({ path: "e2e/screenshots/reject-dialog-ne-360.png" });
  await dialog.getByRole("button", { name: say(l, m.reject_confirm) }).click();
  await expect(dialog).toBeHidden();
  await expect(request).toContainText(say(l, m.status_rejected));
  await expect(request).toContainText("Out of town that day");

  // the customer reads the reason and opens Nepalgunj's other electricians in one tap: the one who
  // declined is not offered again
  await customer.account.openBookings();
  const card = customer.account.booking(note);
  await expect(card).toContainText("Out of town that day");
  await card.getByRole("link", { name: "Find another Electrician in Nepalgunj" }).click();
  await expect(customer.page).toHaveURL(/\/services\/search\?.*location=Nepalgunj/);
  await expect(
    customer.page.getByRole("button", { name: `Book ${E2E.demoProfessional.name}` }),
  ).toBeVisible();
  await expect(customer.page.getByRole("button", { name: `Book ${pro.name}` })).toHaveCount(0);
  await customer.page.screenshot({ path: "e2e/screenshots/reject-find-next-360.png" });
});
