import { expect, test } from "../../fixtures";

const PHONE = { width: 360, height: 740 };

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
    expect((await visitor.search.fromHeader(text)).get("location"), text).toBe(city);
  const both = await visitor.search.fromHeader("electrician pokhara");
  expect([both.get("serviceName"), both.get("location")]).toEqual(["Electrician", "Pokhara"]);
  const words = await visitor.search.fromHeader("tap leak");
  expect(words.get("serviceName")).toBe("Plumber");
  await visitor.page.screenshot({ path: "e2e/screenshots/header-search-cities-ne-360.png" });
});
