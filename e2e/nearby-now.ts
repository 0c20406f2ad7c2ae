/** "Nearest available now" in the browser: electricians sharing a position, and their offer cards. */
import type { ConvexHttpClient } from "convex/browser";
import { expect, type Actor } from "./fixtures";
import { m, say, type Locale } from "./i18n";
import { newProfessional, verifiedProfessionalAccount } from "./people";

/** `km` north of `at`, as a browser geolocation. */
export const north = (at: { lat: number; lng: number }, km: number) => ({
  latitude: at.lat + km / 111,
  longitude: at.lng,
});

/**
 * A new Nepalgunj electrician, verified by `admin` (adminClient) through the app's functions, then
 * signed in to the dashboard in a browser of their own, sharing their position at `at`.
 */
export async function electricianAt(
  actor: (o?: object) => Promise<Actor>,
  admin: ConvexHttpClient,
  locale: Locale,
  width: number,
  at: { latitude: number; longitude: number },
  pro = newProfessional("Electrician", "Nepalgunj"),
) {
  await verifiedProfessionalAccount(pro, admin);
  const person = await actor({
    viewport: { width, height: 800 },
    locale,
    geolocation: at,
    permissions: ["geolocation"],
  });
  await person.auth.professionalSignIn(pro.email, pro.password);
  const sent = say(locale, m.live_sent_at, { time: "" }).trim();
  await expect(person.page.getByText(sent)).toBeAttached({ timeout: 20_000 });
  return person;
}

/** The dashboard's "Jobs nearby now" card, live. */
export function offerOn(pro: Actor) {
  return pro.page
    .getByRole("region", { name: say(pro.locale, m.offers_title) })
    .getByRole("listitem");
}

/** Every offer card in the professional's page, shown or in a hidden dashboard section. */
export function offersInPage(pro: Actor) {
  return pro.page.locator('section[aria-labelledby="now-offers"] li');
}
