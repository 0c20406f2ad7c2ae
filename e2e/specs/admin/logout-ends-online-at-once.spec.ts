import { expect, test } from "../../fixtures";
import { E2E } from "../../env";
import { m, say } from "../../i18n";

/*
 * A professional who logs out is offline for the admin at once, not when their heartbeat times out
 * (70 s): the admin's technician grid drops "Online" within seconds. The professional on a phone.
 */

const PRO = { email: "electrician.mahendranagar@demo.np", name: "Pawan Khadka" };

test("a professional who logs out on their phone stops showing Online in the admin grid at once", async ({
  actor,
}) => {
  test.setTimeout(90_000);
  const admin = await actor({ viewport: { width: 1280, height: 800 } });
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await admin.page.goto("/admin/technicians?city=mahendranagar&specialty=electrician");
  const card = admin.admin.technicianCard(PRO.name);
  await expect(card).toBeVisible();

  const pro = await actor({ viewport: { width: 360, height: 740 } });
  await pro.auth.professionalSignIn(PRO.email, "demo-password-1");
  await expect(card).toContainText(say("en", m.admin_card_online));

  const p = pro.page;
  await p.getByRole("button", { name: say("en", m.nav_open_menu) }).click();
  await p.getByRole("button", { name: say("en", m.nav_logout) }).click();
  await p.getByRole("button", { name: say("en", m.action_continue) }).click();
  const loggedOut = Date.now();
  await expect(card).not.toContainText(say("en", m.admin_card_online), { timeout: 5_000 });
  const seconds = (Date.now() - loggedOut) / 1000;
  test
    .info()
    .annotations.push({ type: "online after logout (s)", description: seconds.toFixed(1) });
});
