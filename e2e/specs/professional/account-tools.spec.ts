import { expect, test } from "../../fixtures";
import { newProfessional } from "../../people";
import { png, uniquePhone } from "../../env";
import { m, say } from "../../i18n";

/*
 * A professional has the account tools customers have: from "My Profile" they change their photo,
 * phone and address, download their data and can delete their account. On a Nepali phone.
 */

const l = "ne-NP";

test("a professional edits photo, phone and address, and finds data export and deletion", async ({
  actor,
}) => {
  test.setTimeout(90_000);
  const pro = newProfessional("Electrician", "Nepalgunj");
  const person = await actor({ locale: l, viewport: { width: 360, height: 740 } });
  const p = person.page;
  await person.auth.signUpProfessional(pro);

  await p.getByRole("button", { name: say(l, m.nav_open_menu) }).click();
  await p.getByRole("link", { name: say(l, m.nav_my_profile) }).click();
  await expect(p).toHaveURL("/professional/account");
  await expect(p.getByRole("heading", { name: pro.name })).toBeVisible();

  const phone = uniquePhone();
  await p.getByRole("button", { name: say(l, m.acc_edit) }).click();
  await p.getByLabel(say(l, m.field_phone)).fill(phone);
  await p.getByLabel(say(l, m.label_address)).fill("Ward 1, Surkhet Road, Nepalgunj");
  await p.getByLabel(say(l, m.doc_profile_photo)).setInputFiles(png("me.png"));
  await p.getByRole("button", { name: say(l, m.acc_save_changes) }).click();
  await expect(p.getByText(say(l, m.acc_profile_saved))).toBeVisible();
  await expect(p.getByText("Ward 1, Surkhet Road, Nepalgunj")).toBeVisible();
  await p.screenshot({ path: "e2e/screenshots/professional-account/profile-ne-360.png" });

  const tabs = p.getByRole("navigation", { name: say(l, m.acc_nav) });
  await tabs.getByRole("button", { name: say(l, m.acc_tab_export) }).click();
  await expect(p.getByRole("button", { name: say(l, m.acc_export_button) })).toBeVisible();
  await tabs.getByRole("button", { name: say(l, m.acc_tab_delete) }).click();
  await expect(p.getByRole("heading", { name: say(l, m.acc_tab_delete) })).toBeVisible();
  // customers' bookings tabs are not a professional's: their jobs are on the dashboard
  await expect(tabs.getByRole("button", { name: say(l, m.nav_my_bookings) })).toHaveCount(0);
});
