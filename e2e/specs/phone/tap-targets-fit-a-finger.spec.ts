import { E2E } from "../../env";
import { expect, test, type Actor } from "../../fixtures";
import { m, say } from "../../i18n";
import { signedInAdmin } from "../../people";

/**
 * On a 360 px phone every control a thumb taps is at least 44 × 44 px (WCAG 2.5.5), on the pages
 * each role lives on. Links inside running text are exempt, as the guideline says.
 */
const PHONE = { width: 360, height: 740 };
const MIN = 44;

async function smallTargets(person: Actor): Promise<string[]> {
  const where = new URL(person.page.url());
  await expect(person.page.getByText(/Loading|Finding/)).toHaveCount(0);
  return person.page
    .evaluate((min) => {
      const controls = document.querySelectorAll<HTMLElement>(
        "a[href], button, select, input:not([type=hidden]), textarea, [role=button], [role=tab], [role=switch], [role=checkbox], [role=radio]",
      );
      const small: string[] = [];
      for (const el of Array.from(controls)) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue; // not shown
        if (el.closest("[hidden], [aria-hidden=true], .leaflet-container")) continue;
        if (getComputedStyle(el).display === "inline" && el.closest("p, li, dd")) continue;
        // a checkbox or radio inside its label: the label is the target
        const label = el.closest("label");
        const target =
          label && /^(checkbox|radio)$/.test((el as HTMLInputElement).type) ? label : el;
        const t = target.getBoundingClientRect();
        if (t.width < min - 0.5 || t.height < min - 0.5) {
          const name = el.getAttribute("aria-label") || el.textContent?.trim() || el.tagName;
          small.push(`${name.slice(0, 40)} ${Math.round(t.width)}×${Math.round(t.height)}`);
        }
      }
      return small;
    }, MIN)
    .then((small) => small.map((s) => `${where.pathname}${where.search}: ${s}`));
}

test("a visitor's pages: landing, services, search, a profile", async ({ actor }) => {
  const small: string[] = [];
  const visitor = await actor({ viewport: PHONE });
  const p = visitor.page;
  await p.goto("/");
  await expect(visitor.landing.headline()).toBeVisible();
  small.push(...(await smallTargets(visitor)));
  await p.goto("/services");
  await expect(p.getByRole("heading", { name: "Our Services" })).toBeVisible();
  small.push(...(await smallTargets(visitor)));
  await visitor.search.open("Electrician", "Nepalgunj");
  await expect(p.getByRole("button", { name: /^Book / }).first()).toBeVisible();
  small.push(...(await smallTargets(visitor)));
  await p.getByRole("link", { name: E2E.demoProfessional.name }).first().click();
  await expect(p.getByRole("heading", { name: E2E.demoProfessional.name })).toBeVisible();
  small.push(...(await smallTargets(visitor)));
  expect(small).toEqual([]);
});

test("the landing and the sign-in pages in Nepali, whose words are shorter or longer", async ({
  actor,
}) => {
  const small: string[] = [];
  const visitor = await actor({ viewport: PHONE, locale: "ne-NP" });
  const p = visitor.page;
  const ne = visitor.locale;
  await p.goto("/");
  await expect(visitor.landing.headline()).toBeVisible();
  // "सम्पर्क" (Contact) is narrower than a finger in the hero's and the footer's links
  small.push(...(await smallTargets(visitor)));
  for (const [path, title] of [
    ["/login", m.nav_login],
    ["/professional-signin", m.signin_title],
  ] as const) {
    await p.goto(path);
    await expect(p.getByRole("heading", { name: say(ne, title) })).toBeVisible();
    // the password's Show button, "Use a code instead", "Forgot password?"
    small.push(...(await smallTargets(visitor)));
    await p.screenshot({ path: `e2e/screenshots/tap-targets-ne${path.replace("/", "-")}-360.png` });
  }
  expect(small).toEqual([]);
});

test("a customer's account tabs", async ({ actor }) => {
  const small: string[] = [];
  const customer = await actor({ viewport: PHONE });
  await customer.auth.login("customer@demo.np", "demo-password-1", "Customer");
  // the header's controls keep one row above the search: menu, mark, language, bell, account
  const header = customer.page.getByRole("navigation", { name: "Main" });
  const rows = await header.locator("button, a").evaluateAll((els) =>
    els
      .map((e) => e.getBoundingClientRect())
      .filter((b) => b.width > 0)
      .map((b) => Math.round(b.top)),
  );
  expect(new Set(rows).size).toBe(1);
  for (const tab of ["", "?tab=bookings", "?tab=notifications"]) {
    await customer.page.goto(`/customer/profile${tab}`);
    await expect(customer.page.getByRole("navigation", { name: "Account" })).toBeVisible();
    small.push(...(await smallTargets(customer)));
    await customer.page.screenshot({ path: `e2e/screenshots/tap-targets-account${tab}-360.png` });
  }
  expect(small).toEqual([]);
});

test("a toast's close button: on screen, 44 px, and a tap near its edge closes the toast", async ({
  actor,
}) => {
  const customer = await actor({ viewport: PHONE });
  await customer.auth.login("customer@demo.np", "demo-password-1", "Customer");
  const toast = customer.page.locator("[data-sonner-toast]").first();
  const close = toast.getByRole("button", { name: say("en", m.action_close) });
  await expect(close).toBeInViewport({ ratio: 1 });
  const box = (await close.boundingBox())!;
  expect([box.width, box.height]).toEqual([MIN, MIN]);
  await toast.hover(); // a hovered toast waits, so only the tap can close it in the next second
  // Playwright taps once the toast stops moving, and only if the point belongs to the button
  await close.click({ position: { x: 3, y: MIN - 3 } });
  await expect(toast).toHaveCount(0, { timeout: 1000 });
});

test("a professional's dashboard sections", async ({ actor }) => {
  const small: string[] = [];
  const pro = await actor({ viewport: PHONE });
  await pro.auth.professionalSignIn("plumber.kathmandu@demo.np", "demo-password-1");
  for (const section of ["requests", "jobs", "hours", "alerts", "location"]) {
    await pro.page.goto(`/professional-dashboard?section=${section}`);
    await expect(pro.page.getByRole("heading", { name: say("en", m.dash_title) })).toBeVisible();
    small.push(...(await smallTargets(pro)));
    await pro.page.screenshot({ path: `e2e/screenshots/tap-targets-${section}-360.png` });
  }
  expect(small).toEqual([]);
});

test("an admin's menu wraps on a phone: every entry on screen and big enough", async ({
  actor,
}) => {
  const admin = await signedInAdmin(actor);
  await admin.page.setViewportSize(PHONE);
  await admin.page.goto("/admin-panel");
  const menu = admin.page.getByRole("navigation", { name: say("en", m.admin_nav_label) });
  await expect(menu).toBeVisible();
  for (const entry of await menu.getByRole("link").all()) await expect(entry).toBeInViewport();
  await admin.page.screenshot({ path: "e2e/screenshots/tap-targets-admin-360.png" });
  expect(await smallTargets(admin)).toEqual([]);
});
