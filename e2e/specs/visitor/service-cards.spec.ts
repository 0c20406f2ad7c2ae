import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";
import { newProfessional, signedInAdmin, signUpProfessional } from "../../people";

const PHONE = { width: 360, height: 740 };

test("service cards list the cities with bookable professionals, live, and Jyotish gets a card", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const visitor = await actor({ viewport: PHONE, locale: "ne-NP" });
  const p = visitor.page;
  const l = visitor.locale;
  await p.goto("/services");
  const grid = p.getByRole("region", { name: say(l, m.nav_services) });
  const card = (name: string) => grid.getByRole("listitem").filter({ hasText: name });

  // the demo's electricians work in Nepalgunj, Kathmandu and Mahendranagar; none in Surkhet
  const electrician = card("बिजुली मिस्त्री");
  await expect(electrician).toContainText("नेपालगन्ज · काठमाडौं · महेन्द्रनगर");
  await expect(electrician).not.toContainText("सुर्खेत");
  await expect(card("ज्योतिष")).toContainText("सुर्खेत");
  await p.screenshot({ path: "e2e/screenshots/service-cards-ne-360.png" });

  // a Pokhara electrician verified in another browser adds Pokhara without a reload
  const admin = await signedInAdmin(actor);
  await signUpProfessional(await actor(), newProfessional("Electrician", "Pokhara"), admin);
  await expect(electrician).toContainText("नेपालगन्ज · काठमाडौं · पोखरा · महेन्द्रनगर");
  await electrician.getByRole("button").click();
  await expect(p.getByRole("dialog").getByRole("link")).toHaveText([
    "नेपालगन्जमा बिजुली मिस्त्री",
    "काठमाडौंमा बिजुली मिस्त्री",
    "पोखरामा बिजुली मिस्त्री",
    "महेन्द्रनगरमा बिजुली मिस्त्री",
  ]);
});
