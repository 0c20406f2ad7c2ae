import { expect, test } from "../../fixtures";
import { E2E } from "../../env";
import { m, say } from "../../i18n";
import { verifiedElectrician } from "../../people";

/*
 * The admin's technician view has a live map of who is online: a professional who signs in on their
 * phone and shares their position appears on it without a reload, the marker opens their card, and
 * they leave the map the moment they log out. The admin reads it in Nepali on a phone.
 */

test("a professional who signs in appears on the admin's live map, opens their card, and leaves it at logout", async ({
  actor,
}) => {
  test.setTimeout(180_000);
  const { pro, professional } = await verifiedElectrician(actor, { width: 360, height: 740 });

  const admin = await actor({ viewport: { width: 360, height: 740 }, locale: "ne-NP" });
  const ne = admin.locale;
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await admin.page.goto("/admin/technicians?city=nepalgunj&specialty=electrician");
  const map = admin.page.getByRole("region", { name: say(ne, m.admin_map_label) });
  const marker = map.getByRole("button", { name: new RegExp(`^${pro.name} · `) });
  await expect(map).toBeVisible();
  await expect(marker).toHaveCount(0);

  // the professional's phone shares its position: the marker comes without a reload
  await professional.page.context().grantPermissions(["geolocation"]);
  await professional.page.context().setGeolocation({ latitude: 28.058, longitude: 81.62 });
  await professional.page.reload();
  await expect(marker).toBeVisible({ timeout: 20_000 });
  await marker.click();
  // Nepali in the popup is drawn in the app's Devanagari font, not Leaflet's Helvetica (boxes)
  const popup = map.locator(".leaflet-popup-content");
  await expect(popup).toContainText(say(ne, m.admin_map_open_card));
  expect(await popup.evaluate((el) => getComputedStyle(el).fontFamily)).toContain(
    "Noto Sans Devanagari",
  );
  await map.getByRole("button", { name: say(ne, m.admin_map_open_card) }).click();
  const card = admin.page.getByRole("dialog");
  await expect(card).toContainText(pro.name);
  await admin.page.screenshot({ path: "e2e/screenshots/admin-live-map-card-ne-360.png" });
  await card.getByRole("button", { name: say(ne, m.action_close) }).click();
  await expect(card).toBeHidden();
  await map.scrollIntoViewIfNeeded();
  await admin.page.screenshot({ path: "e2e/screenshots/admin-live-map-ne-360.png" });

  const p = professional.page;
  await p.getByRole("button", { name: say("en", m.nav_open_menu) }).click();
  await p.getByRole("button", { name: say("en", m.nav_logout) }).click();
  await p.getByRole("button", { name: say("en", m.action_continue) }).click();
  await expect(marker).toHaveCount(0, { timeout: 5_000 });
});
