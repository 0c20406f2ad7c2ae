import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";

/*
 * A professional's phone loses its network on the road: the header says "Offline" at once (the
 * browser knows before the socket's next missed ping), and the app is connected again within 3 s of
 * the network returning. In Nepali on a phone.
 */

test("a professional's phone says offline at once and reconnects within 3 s of the network returning", async ({
  actor,
}) => {
  test.setTimeout(90_000);
  const pro = await actor({ viewport: { width: 360, height: 740 }, locale: "ne-NP" });
  const ne = pro.locale;
  await pro.auth.professionalSignIn("professional@demo.np", "demo-password-1");
  const status = pro.page.getByRole("status", {
    name: say(ne, m.connection_connected),
    exact: true,
  });
  await expect(status).toBeAttached({ timeout: 20_000 });

  await pro.page.context().setOffline(true);
  const wentOffline = Date.now();
  const offline = pro.page.getByRole("status", {
    name: say(ne, m.connection_offline),
    exact: true,
  });
  await expect(offline).toBeVisible({ timeout: 1_000 });
  const saidOffline = (Date.now() - wentOffline) / 1000;
  await pro.page.screenshot({ path: "e2e/screenshots/professional-offline-ne-360.png" });

  await pro.page.context().setOffline(false);
  const cameBack = Date.now();
  await expect(status).toBeAttached({ timeout: 3_000 });
  const reconnected = (Date.now() - cameBack) / 1000;
  test
    .info()
    .annotations.push(
      { type: "seconds to 'offline'", description: saidOffline.toFixed(2) },
      { type: "seconds to reconnect", description: reconnected.toFixed(2) },
    );
});

test("a sign-in watcher's code lost to the network leaves the app up, and loads once the network is back", async ({
  actor,
}) => {
  const pro = await actor({ viewport: { width: 360, height: 740 }, locale: "en" });
  const watcher = /device-seen-[^/]*\.js$/;
  await pro.page.route(watcher, (route) => route.abort("internetdisconnected"));
  const lost = pro.page.waitForEvent("requestfailed", (request) => watcher.test(request.url()));
  await pro.auth.professionalSignIn("professional@demo.np", "demo-password-1");
  await lost;
  const status = pro.page.getByRole("status", {
    name: say(pro.locale, m.connection_connected),
    exact: true,
  });
  await expect(status).toBeAttached({ timeout: 20_000 });

  await pro.page.unroute(watcher);
  const loaded = pro.page.waitForResponse(watcher);
  await pro.page.context().setOffline(true);
  await pro.page.context().setOffline(false);
  expect((await loaded).ok()).toBe(true);
  await expect(status).toBeAttached();
});
