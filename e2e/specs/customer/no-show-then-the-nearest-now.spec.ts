import type { ConvexHttpClient } from "convex/browser";
import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import { electricianAt, north, offerOn, offersInPage } from "../../nearby-now";
import { importedBooking } from "../../imported-booking";
import { adminClient, newCustomer, newProfessional, signedInAdmin } from "../../people";

/**
 * Where the job is: north-west of Nepalgunj, one spot per language, away from the other nearest-now
 * specs' electricians. The one who will not come waits 0.3 km from it, the other 1.2 km.
 */
const JOBS: Record<Locale, { lat: number; lng: number }> = {
  en: { lat: 28.14, lng: 81.52 },
  "ne-NP": { lat: 28.14, lng: 81.45 },
};

/** The e2e admin's client, which verifies each test's electricians. */
let asAdmin: ConvexHttpClient;
test.beforeAll(async () => {
  asAdmin = await adminClient();
});

for (const locale of LANGUAGES) {
  test(`no-show: the customer closes it, sends the job out again in one tap, never to the same professional; the admin sees the strike live (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(300_000);
    const job = JOBS[locale];
    const lateAccount = newProfessional("Electrician", "Nepalgunj");
    // the professional who will not come is the nearest, online and free: only the rule keeps them out
    const [admin, late, other] = await Promise.all([
      signedInAdmin(actor),
      electricianAt(actor, asAdmin, locale, 1280, north(job, 0.3), lateAccount),
      electricianAt(actor, asAdmin, locale, 1280, north(job, 1.2)),
    ]);

    const customer = await actor({ viewport: { width: 360, height: 800 }, locale });
    const me = newCustomer("Ward 6, Bageshwori, Nepalgunj");
    await customer.auth.signUpAndLogInCustomer(me);
    // booked 40 minutes ago (past the admin setting's 30), accepted, and nobody came
    const bookingId = await importedBooking({
      customer: me,
      professional: lateAccount,
      scheduledFor: Date.now() - 40 * 60_000,
      service: { category: "Electrician", serviceName: "Fan Installation" },
      city: { slug: "nepalgunj", name: "Nepalgunj" },
      address: "Ward 6, Bageshwori",
      pin: job,
    });

    // the admin's grid shows the professional without strikes
    await admin.page.goto("/admin-panel");
    const card = admin.admin.technicianCard(lateAccount.name);
    const strikes = (count: number) =>
      say("en", m.admin_card_no_show_strikes, { count: String(count), max: "3" });
    await expect(card).toContainText(strikes(0));

    const p = customer.page;
    await p.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
    await p.getByRole("button", { name: say(locale, m.no_show_mark) }).click();
    const ask = p.getByRole("dialog", { name: say(locale, m.no_show_title) });
    await ask.getByRole("button", { name: say(locale, m.no_show_confirm) }).click();
    await expect(ask).toBeHidden();
    await expect(
      p.getByText(say(locale, m.no_show_closed, { name: lateAccount.name })),
    ).toBeVisible();
    await p.screenshot({ path: `e2e/screenshots/no-show-closed-${locale}-360.png` });

    // the strike reaches the admin's grid without a reload
    await expect(card).toContainText(strikes(1));
    await admin.page.screenshot({ path: `e2e/screenshots/no-show-strike-admin-1280.png` });

    // one tap sends the job out again from its pin
    const [before, after] = say(locale, m.no_show_redispatch, { service: "#" })
      .split("#")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    await p.getByRole("button", { name: new RegExp(`^${before}.+${after}$`) }).click();
    await expect(p.getByText(say(locale, m.now_finding))).toBeVisible();
    await p.screenshot({ path: `e2e/screenshots/no-show-redispatch-${locale}-360.png` });

    // the other electrician is offered it; the one who did not come is not, though nearer
    const offer = offerOn(other);
    await expect(offer.getByRole("timer")).toBeVisible();
    await expect(offersInPage(late)).toHaveCount(0);
    await offer.getByRole("button", { name: say(locale, m.offers_accept) }).click();
    await expect(p.getByText(say(locale, m.now_matched))).toBeVisible();
    await p.setViewportSize({ width: 1280, height: 800 });
    await p.screenshot({ path: `e2e/screenshots/no-show-matched-${locale}-1280.png` });
    await expect(offersInPage(late)).toHaveCount(0);
  });
}
