import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";
import { customerAccount, expectNoSidewaysScroll, newCustomer, signedInAdmin } from "../../people";

/**
 * On a 360 px phone the search page shows the professionals before the map,
 * with the first Book on the first screen; and no page scrolls sideways, at 360 px or 1280 px.
 */
test("360 px search page: the list comes before the map and the first Book is on the first screen", async ({
  actor,
}) => {
  const visitor = await actor({ viewport: { width: 360, height: 740 } });
  const p = visitor.page;
  await visitor.search.open("Electrician", "Nepalgunj");
  const firstBook = p.getByRole("button", { name: /^Book / }).first();
  await expect(firstBook).toBeVisible();
  await expect(firstBook).toBeInViewport();
  const map = p.getByRole("region", { name: /map/i }).or(p.locator(".leaflet-container")).first();
  await expect(map).toBeAttached();
  const [listTop, mapTop] = await Promise.all([
    p
      .getByRole("heading", { name: "Professionals near you" })
      .evaluate((e) => e.getBoundingClientRect().top),
    map.evaluate((e) => e.getBoundingClientRect().top),
  ]);
  expect(listTop).toBeLessThan(mapTop);
  await p.screenshot({ path: "e2e/screenshots/search-first-screen-360.png" });
});

for (const width of [360, 1280]) {
  test(`no page scrolls sideways (${width} px)`, async ({ actor }) => {
    test.setTimeout(120_000);
    const visitor = await actor({ viewport: { width, height: 800 } });
    const p = visitor.page;
    const settle = () => expect(p.getByText(/Loading|Finding/)).toHaveCount(0);

    await p.goto("/");
    await expect(visitor.landing.headline()).toBeVisible();
    await expectNoSidewaysScroll(visitor);
    await p.goto("/services");
    await expect(p.getByRole("heading", { name: "Our Services" })).toBeVisible();
    await expectNoSidewaysScroll(visitor);
    await visitor.search.open("Electrician", "Nepalgunj");
    await expect(p.getByRole("button", { name: /^Book / }).first()).toBeVisible();
    await settle();
    await expectNoSidewaysScroll(visitor);
    await p.getByRole("link", { name: E2E.demoProfessional.name }).first().click();
    await expect(p.getByRole("heading", { name: E2E.demoProfessional.name })).toBeVisible();
    await settle();
    await expectNoSidewaysScroll(visitor);

    const customer = await actor({ viewport: { width, height: 800 } });
    await customer.auth.login("customer@demo.np", "demo-password-1", "Customer");
    for (const tab of ["", "?tab=bookings", "?tab=notifications"]) {
      await customer.page.goto(`/customer/profile${tab}`);
      await expect(customer.page.getByRole("navigation", { name: "Account" })).toBeVisible();
      await expect(customer.page.getByText(/Loading/)).toHaveCount(0);
      await expectNoSidewaysScroll(customer);
    }

    const pro = await actor({ viewport: { width, height: 800 } });
    await pro.auth.professionalSignIn(E2E.demoProfessional.email, E2E.demoProfessional.password);
    await expect(pro.page.getByRole("region", { name: "Bookings" })).toBeVisible();
    await expect(pro.page.getByText(/Loading/)).toHaveCount(0);
    await expectNoSidewaysScroll(pro);

    // a long name among those online (the admin dashboard lists them) must not widen the page
    const longNamed = { ...newCustomer(), name: `Customer ${unique()} Bahadur Adhikari Shrestha` };
    await customerAccount(longNamed);
    const online = await actor({ viewport: { width, height: 800 } });
    await online.auth.login(longNamed.email, longNamed.password, "Customer");

    const admin = await signedInAdmin(actor);
    // the sign-in's toast was placed for 1280 px; measure the page, not a toast caught mid-resize
    await expect(admin.page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
    await admin.page.setViewportSize({ width, height: 800 });
    for (const path of [
      "/admin-panel",
      "/admin/dashboard",
      "/admin/users",
      "/admin/settings",
      "/admin/messages",
    ]) {
      await admin.page.goto(path);
      await expect(admin.page.getByRole("navigation", { name: "Admin" })).toBeVisible();
      await expect(admin.page.getByText(/Loading|Checking/)).toHaveCount(0);
      await expectNoSidewaysScroll(admin);
    }
  });
}

// The last sideways scroll: on narrow phones the result cards (a grid item sized to its content)
// stuck out past the page, by 4 px at 344 px in Nepali and 26 px at 320 px.
for (const width of [320, 344]) {
  test(`${width} px in Nepali: the search results do not scroll sideways`, async ({ actor }) => {
    const visitor = await actor({ viewport: { width, height: 800 } });
    await visitor.page.addInitScript(() => localStorage.setItem("gharsewa.locale", "ne-NP"));
    await visitor.search.open("Electrician", "Nepalgunj");
    await expect(
      visitor.page.getByRole("listitem").filter({ hasText: E2E.demoProfessional.name }),
    ).toBeVisible();
    await expect(visitor.page.locator("html")).toHaveAttribute("lang", /^ne/);
    await expectNoSidewaysScroll(visitor);
  });
}
