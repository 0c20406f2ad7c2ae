import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";

test("a menu whose code is lost to the network leaves the page up, and opens once the network is back", async ({
  actor,
}) => {
  const visitor = await actor({ viewport: { width: 360, height: 740 }, locale: "en" });
  const p = visitor.page;
  const drawer = /header-drawer-[^/]*\.js$/;
  await p.route(drawer, (route) => route.abort("internetdisconnected"));
  const lostInBackground = p.waitForEvent("requestfailed", (r) => drawer.test(r.url()));
  await p.goto("/");
  const heading = p.getByRole("heading", { name: say("en", m.hero_title) });
  await expect(heading).toBeVisible();

  // fetched after the page has loaded, then again on the tap
  await lostInBackground;
  const lost = p.waitForEvent("requestfailed", (request) => drawer.test(request.url()));
  await p.getByRole("button", { name: say("en", m.nav_open_menu) }).click();
  await lost;
  // the page and its header stay; no error page takes their place
  await expect(heading).toBeVisible();
  await expect(p.getByRole("button", { name: say("en", m.nav_open_menu) })).toBeVisible();
  await expect(p.getByRole("alert")).toHaveCount(0);

  await p.unroute(drawer);
  const loaded = p.waitForResponse(drawer);
  await p.context().setOffline(true);
  await p.context().setOffline(false);
  expect((await loaded).ok()).toBe(true);
  await expect(p.getByRole("dialog", { name: say("en", m.nav_menu) })).toBeVisible();
  await expect(heading).toBeVisible();
});

test("a menu whose code is gone from the server while online offers a reload, which opens it", async ({
  actor,
}) => {
  // a first visit: no service worker holds the build (one that does serves the chunk, and the menu opens)
  const visitor = await actor({
    viewport: { width: 360, height: 740 },
    locale: "en",
    serviceWorkers: "block",
  });
  const p = visitor.page;
  const drawer = /header-drawer-[^/]*\.js$/;
  await p.route(drawer, (route) => route.fulfill({ status: 404, body: "" }));
  await p.goto("/");
  await p.getByRole("button", { name: say("en", m.nav_open_menu) }).click();

  // tried again while online, then taken as gone (a deploy): the page stays and offers a reload
  const offer = p.getByRole("alert").filter({ hasText: say("en", m.pwa_part_missing) });
  await expect(offer).toBeVisible({ timeout: 15_000 });
  await expect(p.getByRole("heading", { name: say("en", m.hero_title) })).toBeVisible();

  await p.unroute(drawer);
  await offer.getByRole("button", { name: say("en", m.pwa_reload) }).click();
  await p.waitForURL("/");
  await p.getByRole("button", { name: say("en", m.nav_open_menu) }).click();
  await expect(p.getByRole("dialog", { name: say("en", m.nav_menu) })).toBeVisible();
  await expect(p.getByRole("alert")).toHaveCount(0);
});
