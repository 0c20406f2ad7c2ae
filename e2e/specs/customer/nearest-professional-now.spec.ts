import type { ConvexHttpClient } from "convex/browser";
import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import { electricianAt, north, offerOn, offersInPage } from "../../nearby-now";
import { adminClient, newCustomer } from "../../people";

/**
 * Where the job is, north of Nepalgunj (away from the city's centre, where other specs' electricians
 * wait), one spot per language so one run's professionals are not the other's nearest; the two
 * electricians share live positions about 0.6 km and 1.7 km north of it.
 */
const JOBS: Record<Locale, { lat: number; lng: number }> = {
  en: { lat: 28.1, lng: 81.66 },
  "ne-NP": { lat: 28.1, lng: 81.57 },
};
const digit = (locale: Locale, n: number) => (locale === "en" ? String(n) : "०१२३४५६७८९"[n]);

/** The e2e admin, who verifies each test's electricians. */
let admin: ConvexHttpClient;
test.beforeAll(async () => {
  admin = await adminClient();
});

for (const locale of LANGUAGES) {
  test(`nearest electrician now: the nearest declines, the next accepts, the customer sees it live (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(240_000);
    const job = JOBS[locale];
    const [nearest, next] = await Promise.all([
      electricianAt(actor, admin, locale, 360, north(job, 0.6)),
      electricianAt(actor, admin, locale, 1280, north(job, 1.7)),
    ]);

    const customer = await actor({
      viewport: { width: 360, height: 800 },
      locale,
      geolocation: { latitude: job.lat, longitude: job.lng },
      permissions: ["geolocation"],
    });
    const p = customer.page;
    await customer.auth.signUpAndLogInCustomer(newCustomer());
    await customer.search.open("Electrician", "Nepalgunj");
    await p.locator('a[href^="/now?"]').click();
    await p.getByRole("checkbox").first().check();
    await p.getByLabel(say(locale, m.label_address), { exact: true }).fill("Ward 9, Bageshwori");
    await p.getByRole("button", { name: say(locale, m.pin_use_location) }).click();
    await expect(p.getByTestId("pin-status")).toHaveText(
      say(locale, m.pin_set, {
        lat: job.lat.toFixed(5).replace(/\d/g, (d) => digit(locale, Number(d))),
        lng: job.lng.toFixed(5).replace(/\d/g, (d) => digit(locale, Number(d))),
      }),
    );
    await p.getByRole("button", { name: say(locale, m.now_find) }).click();
    const progress = p.getByTestId("now-progress");
    await expect(p.getByText(say(locale, m.now_finding))).toBeVisible();
    await p.screenshot({ path: `e2e/screenshots/nearest-now-finding-${locale}-360.png` });

    // the nearest sees the offer without reloading, and declines it
    const first = offerOn(nearest);
    await expect(first.getByRole("timer")).toBeVisible();
    await nearest.page.screenshot({ path: `e2e/screenshots/nearest-now-offer-${locale}-360.png` });
    await first.getByRole("button", { name: say(locale, m.offers_decline) }).click();
    await expect(first.getByRole("status")).toHaveText(say(locale, m.offers_declined));
    // ... and the customer's line counts the decline, live
    const declined = say(locale, m.now_progress, { offered: "#", declined: "1", passed: "0" })
      .split("#")[1]
      .replace(/\d/g, (d) => digit(locale, Number(d)));
    await expect(progress).toContainText(declined);

    // the next nearest sees it live too, and takes it
    const second = offerOn(next);
    await expect(second.getByRole("timer")).toBeVisible();
    await second.getByRole("button", { name: say(locale, m.offers_accept) }).click();
    await expect(second.getByRole("status")).toHaveText(say(locale, m.offers_accepted));
    await next.page.screenshot({ path: `e2e/screenshots/nearest-now-accepted-${locale}-1280.png` });

    // the customer's page turns to "accepted" without a reload, with the booking one tap away
    await expect(p.getByText(say(locale, m.now_matched))).toBeVisible();
    await p.screenshot({ path: `e2e/screenshots/nearest-now-matched-${locale}-360.png` });
    await p.setViewportSize({ width: 1280, height: 800 });
    await p.screenshot({ path: `e2e/screenshots/nearest-now-matched-${locale}-1280.png` });
    await p.getByRole("link", { name: say(locale, m.now_see_booking) }).click();
    await expect(p.getByText("Ward 9, Bageshwori").first()).toBeVisible();
  });
}

test("the nearest goes unavailable: their offer leaves their screen, the next is offered at once", async ({
  actor,
}) => {
  test.setTimeout(240_000);
  const locale = "en";
  const job = { lat: 28.1, lng: 81.75 };
  const [nearest, next] = await Promise.all([
    electricianAt(actor, admin, locale, 360, north(job, 0.6)),
    electricianAt(actor, admin, locale, 1280, north(job, 1.7)),
  ]);

  const customer = await actor({
    viewport: { width: 360, height: 800 },
    locale,
    geolocation: { latitude: job.lat, longitude: job.lng },
    permissions: ["geolocation"],
  });
  const p = customer.page;
  await customer.auth.signUpAndLogInCustomer(newCustomer());
  await customer.search.open("Electrician", "Nepalgunj");
  await p.locator('a[href^="/now?"]').click();
  await p.getByRole("checkbox").first().check();
  await p.getByLabel(say(locale, m.label_address), { exact: true }).fill("Ward 2, Dhamboji");
  await p.getByRole("button", { name: say(locale, m.pin_use_location) }).click();
  await expect(p.getByTestId("pin-status")).toContainText(job.lat.toFixed(5));
  await p.getByRole("button", { name: say(locale, m.now_find) }).click();
  const progress = p.getByTestId("now-progress");
  const line = (passed: string) =>
    new RegExp(
      say(locale, m.now_progress, { offered: "#", declined: "0", passed: "@" })
        .split("#")[1]
        .replace("@", passed),
    );
  await expect(progress).toContainText(line("0"));

  // the nearest sees the offer, then switches off "Available for bookings" without answering it
  const first = offerOn(nearest);
  await expect(first.getByRole("timer")).toBeVisible();
  const second = offerOn(next);
  await expect(second.getByRole("timer")).toBeVisible();
  await expect(offersInPage(nearest)).toHaveCount(1);
  const leftAt = Date.now();
  await nearest.dashboard.openSection(m.dash_tab_hours);
  await nearest.page.getByRole("switch", { name: say(locale, m.pc_available_label) }).click();
  await expect(nearest.page.getByText(say(locale, m.pc_now_unavailable))).toBeVisible();
  // the offer is gone from their page (hidden sections included), not shown as closed
  await expect(offersInPage(nearest)).toHaveCount(0);
  await nearest.dashboard.openSection(m.dash_tab_requests);
  await expect(second.getByRole("timer")).toBeVisible();
  await nearest.page.screenshot({
    path: `e2e/screenshots/offer-left-unavailable-${locale}-360.png`,
  });

  // the customer's line counts it at once, long before the offer's 90 s would have run out
  await expect(progress).toContainText(line("[1-9]"));
  expect(Date.now() - leftAt).toBeLessThan(30_000);
  await p.screenshot({ path: `e2e/screenshots/offer-left-customer-${locale}-360.png` });

  // the request is still open to the next nearest, who takes it
  await second.getByRole("button", { name: say(locale, m.offers_accept) }).click();
  await expect(second.getByRole("status")).toHaveText(say(locale, m.offers_accepted));
  await expect(p.getByText(say(locale, m.now_matched))).toBeVisible();
});
