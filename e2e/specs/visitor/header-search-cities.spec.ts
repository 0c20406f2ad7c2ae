import { expect, test } from "../../fixtures";
import type { Actor } from "../../fixtures";
import { m, say } from "../../i18n";

const PHONE = { width: 360, height: 740 };

async function choose(person: Actor, text: string) {
  const box = person.page.getByRole("combobox", { name: say(person.locale, m.search_label) });
  await box.fill(text);
  const first = person.page.getByRole("option").first();
  await expect(first).toBeVisible();
  await first.click();
  await expect(person.page).toHaveURL(/\/services\/search\?/);
  return new URL(person.page.url()).searchParams;
}

test("header search understands a city and several words, in Nepali and romanised, and opens in that city", async ({
  actor,
}) => {
  const visitor = await actor({ viewport: PHONE, locale: "ne-NP" });
  await visitor.page.goto("/");
  for (const [text, city] of [
    ["पोखरा", "Pokhara"],
    ["नेपालगन्ज", "Nepalgunj"],
    ["Pokhara", "Pokhara"],
  ] as const)
    expect((await choose(visitor, text)).get("location"), text).toBe(city);
  const both = await choose(visitor, "electrician pokhara");
  expect([both.get("serviceName"), both.get("location")]).toEqual(["Electrician", "Pokhara"]);
  const words = await choose(visitor, "tap leak");
  expect(words.get("serviceName")).toBe("Plumber");
  await visitor.page.screenshot({ path: "e2e/screenshots/header-search-cities-ne-360.png" });
});
