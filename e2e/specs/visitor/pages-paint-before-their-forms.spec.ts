import type { Page, Route } from "@playwright/test";
import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";

/** Holds the requests for a chunk until released; resolves `asked` once the page has asked for it. */
function holdChunk(page: Page, chunk: RegExp) {
  const held: Route[] = [];
  let asked!: () => void;
  const askedFor = new Promise<void>((resolve) => (asked = resolve));
  void page.route(chunk, (route) => {
    held.push(route);
    asked();
  });
  return {
    askedFor,
    release: async () => {
      await Promise.all(held.map((route) => route.continue()));
      await page.unroute(chunk);
    },
  };
}

// a first visit on a phone: no service worker holds the build yet (playwright.config.ts blocks them)
test.use({ viewport: { width: 360, height: 740 }, locale: "en" });

for (const { path, chunk, heading, field } of [
  { path: "/login", chunk: /login-form-[^/]*\.js$/, heading: m.nav_login, field: m.label_password },
  {
    path: "/signup",
    chunk: /signup-form-[^/]*\.js$/,
    heading: m.signup_title,
    field: m.label_password,
  },
  {
    path: "/contact",
    chunk: /contact-form-[^/]*\.js$/,
    heading: m.contact_title,
    field: m.contact_name,
  },
  {
    path: "/professional-signin",
    chunk: /signin-form-[^/]*\.js$/,
    heading: m.signin_title,
    field: m.label_password,
  },
  {
    path: "/forgot-password",
    chunk: /two-step-code-steps-[^/]*\.js$/,
    heading: m.reset_title,
    field: m.field_contact,
  },
]) {
  test(`${path} on a phone shows its heading while its form's code is still on the way, then the form`, async ({
    page: p,
  }) => {
    const form = holdChunk(p, chunk);
    await p.goto(path);
    await expect(p.getByRole("heading", { level: 1, name: say("en", heading) })).toBeVisible();
    // the form's code is asked for only once the page has painted, and it is not there yet
    await form.askedFor;
    await expect(p.locator("[aria-busy=true]")).toBeAttached();
    await expect(p.getByLabel(say("en", field), { exact: true })).toHaveCount(0);

    await form.release();
    await expect(p.getByLabel(say("en", field), { exact: true }).first()).toBeVisible();
    await expect(p.locator("[aria-busy=true]")).toHaveCount(0);
  });
}

test("before any script arrives, a phone already shows the header's bar with GharSewa's mark", async ({
  page: p,
}) => {
  await p.route(/\.js$/, (route) => route.abort());
  await p.goto("/services");
  const bar = p.getByRole("banner");
  await expect(bar).toBeVisible();
  await expect(bar.getByRole("link", { name: "GharSewa" })).toHaveAttribute("href", "/");
  expect((await bar.locator("svg").boundingBox())?.width).toBe(32);
});
