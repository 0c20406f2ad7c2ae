import { expect, test, type Actor } from "../../fixtures";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import { newCustomer, newProfessional, signedInAdmin, signUpProfessional } from "../../people";

/**
 * Where the job is, north of Nepalgunj (away from the city's centre, where other specs' electricians
 * wait), one spot per language so one run's professionals are not the other's nearest; the two
 * electricians share live positions about 0.6 km and 1.7 km north of it.
 */
const JOBS: Record<Locale, { lat: number; lng: number }> = {
  en: { lat: 28.1, lng: 81.66 },
  "ne-NP": { lat: 28.1, lng: 81.57 },
};
const north = (at: { lat: number; lng: number }, km: number) => ({
  latitude: at.lat + km / 111,
  longitude: at.lng,
});

const digit = (locale: Locale, n: number) => (locale === "en" ? String(n) : "०१२३४५६७८९"[n]);

/** A new Nepalgunj electrician, verified, on the dashboard sharing their position at `at`. */
async function electricianAt(
  actor: (o?: object) => Promise<Actor>,
  admin: Actor,
  locale: Locale,
  width: number,
  at: { latitude: number; longitude: number },
) {
  const pro = newProfessional("Electrician", "Nepalgunj");
  const person = await actor({
    viewport: { width, height: 800 },
    locale,
    geolocation: at,
    permissions: ["geolocation"],
  });
  await signUpProfessional(person, pro, admin);
  await person.auth.professionalSignIn(pro.email, pro.password);
  const sent = say(locale, m.live_sent_at, { time: "" }).trim();
  await expect(person.page.getByText(sent)).toBeAttached({ timeout: 20_000 });
  return person;
}

/** The dashboard's "Jobs nearby now" card, live. */
function offerOn(pro: Actor) {
  return pro.page
    .getByRole("region", { name: say(pro.locale, m.offers_title) })
    .getByRole("listitem");
}

for (const locale of LANGUAGES) {
  test(`nearest electrician now: the nearest declines, the next accepts, the customer sees it live (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(240_000);
    const job = JOBS[locale];
    const admin = await signedInAdmin(actor);
    const nearest = await electricianAt(actor, admin, locale, 360, north(job, 0.6));
    const next = await electricianAt(actor, admin, locale, 1280, north(job, 1.7));

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
    await p.getByLabel(say(locale, m.book_address), { exact: true }).fill("Ward 9, Bageshwori");
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
