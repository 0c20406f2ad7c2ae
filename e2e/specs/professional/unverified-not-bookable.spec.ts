import { expect, test } from "../../fixtures";
import {
  adminClient,
  newProfessional,
  signUpProfessional,
  verifiedProfessionalAccount,
} from "../../people";

const KATHMANDU = { latitude: 27.7172, longitude: 85.324 };
const WHY = "Not verified yet, so not taking bookings.";

/**
 * A new, unverified professional offers no Book anywhere a customer looks —
 * the search card and the profile say why, the map shows no marker (so no popup with Book) — and
 * their own dashboard does not claim that customers can book them.
 */
test("an unverified professional has no Book on search, map or profile, and their dashboard says why", async ({
  actor,
  api,
}) => {
  const pro = newProfessional("Electrician", "Kathmandu");
  const professional = await actor({ viewport: { width: 1280, height: 800 } });
  await signUpProfessional(professional, pro);
  // on the map too, if unverified professionals were shown
  const auth = await api.professionalLogin(pro.email, pro.password);
  await api.reportPosition(auth, KATHMANDU.latitude, KATHMANDU.longitude);
  // a verified Kathmandu electrician sharing a position beside them (a demo one may have gone offline)
  const bookable = newProfessional("Electrician", "Kathmandu");
  await verifiedProfessionalAccount(bookable, await adminClient());
  const bookableAuth = await api.professionalLogin(bookable.email, bookable.password);
  await api.reportPosition(bookableAuth, KATHMANDU.latitude + 0.01, KATHMANDU.longitude);

  for (const width of [360, 1280]) {
    const visitor = await actor({ viewport: { width, height: 800 } });
    const p = visitor.page;
    await visitor.search.open("Electrician", "Kathmandu");
    const card = p.getByRole("listitem").filter({ hasText: pro.name });
    await expect(card).toContainText("Unverified");
    await expect(card).toContainText(WHY);
    await expect(card.getByRole("button", { name: /Book/ })).toHaveCount(0);
    // the verified one is bookable on the same page
    const verified = p.getByRole("listitem").filter({ hasText: bookable.name });
    await expect(verified.getByRole("button", { name: `Book ${bookable.name}` })).toBeEnabled();

    // the map: the verified one has a marker whose popup leads to the profile; the unverified none
    await visitor.search.showMap();
    await expect(visitor.search.marker(bookable.name)).toBeVisible();
    await expect(visitor.search.marker(pro.name)).toHaveCount(0);
    // from the keyboard: markers of earlier runs at the same spot would take a pointer's click
    await visitor.search.marker(bookable.name).press("Enter");
    await expect(
      p.locator(".leaflet-popup").getByRole("link", { name: "View profile" }),
    ).toHaveAttribute("href", /^\/professionals\//);
    await p.screenshot({ path: `e2e/screenshots/unverified-search-${width}.png` });

    await card.getByRole("link", { name: pro.name }).click();
    await expect(p).toHaveURL(/\/professionals\//);
    const main = p.getByRole("main");
    await expect(main.getByRole("heading", { name: pro.name })).toBeVisible();
    await expect(main).toContainText("Unverified");
    await expect(main).toContainText(WHY);
    await expect(main.getByRole("button", { name: /Book/ })).toHaveCount(0);
    await p.screenshot({ path: `e2e/screenshots/unverified-profile-${width}.png` });
  }

  await professional.auth.professionalSignIn(pro.email, pro.password);
  await expect(professional.dashboard.accountStatus()).toContainText("Unverified");
  const dashboard = professional.page.getByRole("main");
  await expect(dashboard).toContainText(
    "Customers cannot book you until an administrator has verified your documents.",
  );
  await expect(dashboard.getByText("Customers can book you.", { exact: true })).toHaveCount(0);
});
