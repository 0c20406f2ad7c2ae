import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";
import { LANGUAGES } from "../../i18n";
import { newCustomer, verifiedElectrician } from "../../people";

/** The job's pin in Nepalgunj, and where the professional sets off from (about 2 km north). */
const JOB = { lat: 28.05, lng: 81.617 };
const START = { latitude: 28.068, longitude: 81.617 };
const NEARER = { latitude: 28.056, longitude: 81.617 };

async function client(provider: string, account: { email: string; password: string }) {
  const c = new ConvexHttpClient(E2E.convexUrl, { logger: false });
  const { tokens } = (await c.action(anyApi.auth.signIn, {
    provider,
    params: { flow: "signIn", ...account },
  })) as { tokens: { token: string } };
  c.setAuth(tokens.token);
  return c;
}

for (const locale of LANGUAGES) {
  test(`the customer watches the professional come nearer: distance and arrival update live (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(180_000);
    const { pro, professional } = await verifiedElectrician(actor, { width: 1280, height: 800 });
    await professional.page.context().grantPermissions(["geolocation"]);
    await professional.page.context().setGeolocation(START);
    const customer = await actor({ viewport: { width: 360, height: 800 }, locale });
    const me = newCustomer();
    await customer.auth.signUpAndLogInCustomer(me);

    // a booking with a map pin, soon enough for the trip to start
    const [asCustomer, asPro] = await Promise.all([
      client("customer", me),
      client("professional", pro),
    ]);
    const { _id: professionalId } = (await asPro.query(anyApi.professionals.me, {})) as {
      _id: string;
    };
    const { _id: serviceId } = (await asCustomer.query(anyApi.catalog.serviceDetails, {
      category: "electrical",
      serviceName: "Fan Installation",
      location: "Nepalgunj",
    })) as { _id: string };
    const note = `Fan on the way ${unique()}`;
    await asCustomer.mutation(anyApi.bookings.create, {
      professionalId,
      serviceIds: [serviceId],
      city: "nepalgunj",
      address: "Ward 4, Tribhuvan Chowk",
      pin: JOB,
      note,
      scheduledFor: Date.now() + 20 * 60_000,
    });

    await professional.page.reload();
    const job = professional.dashboard.booking(note);
    for (const step of ["Accept", "Start trip"]) {
      await job.getByRole("button", { name: step, exact: true }).click();
      await expect(job.getByRole("button", { name: step, exact: true })).toHaveCount(0);
    }

    await customer.account.openBookings();
    const card = customer.account.booking(note);
    const eta = card.getByRole("status").filter({ hasText: locale === "en" ? "km" : "किमि" });
    await expect(eta).toBeVisible({ timeout: 20_000 });
    const far = await eta.textContent();
    await card.scrollIntoViewIfNeeded();
    await customer.page.screenshot({ path: `e2e/screenshots/eta-${locale}-360.png` });

    // the professional rides nearer: the customer's screen follows without a reload
    await professional.page.context().setGeolocation(NEARER);
    await expect(eta).not.toHaveText(far!, { timeout: 20_000 });
  });
}
