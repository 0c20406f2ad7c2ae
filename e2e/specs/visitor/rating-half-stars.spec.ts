import { E2E } from "../../env";
import { expect, test } from "../../fixtures";

/** A rating is drawn to the half star on the search page's cards. */
for (const width of [360, 1280]) {
  test(`a rating is drawn to the half star, e.g. 4.5 as four and a half (${width} px)`, async ({
    actor,
  }) => {
    const visitor = await actor({ viewport: { width, height: 800 } });
    await visitor.search.open("Electrician", "Nepalgunj");
    const card = visitor.page.getByRole("listitem").filter({ hasText: E2E.demoProfessional.name });
    const stars = card.getByRole("img", { name: /out of 5 stars/ });
    const label = (await stars.getAttribute("aria-label")) ?? "";
    const average = Number(/^([\d.]+) out of 5/.exec(label)?.[1]);
    const fills = await stars
      .locator("[data-fill]")
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-fill"))));
    const halves = Math.round(average * 2);
    expect(fills).toEqual(
      [0, 1, 2, 3, 4].map((i) => Math.min(1, Math.max(0, (halves - 2 * i) / 2))),
    );
    // the demo data rates Ram 5 and 4: four full stars and a half, not five
    if (average === 4.5) expect(fills).toEqual([1, 1, 1, 1, 0.5]);
    // the half star is drawn half: its coloured copy is clipped to the left half
    if (fills.includes(0.5)) {
      const half = stars.locator('[data-fill="0.5"] svg').nth(1);
      await expect(half).toHaveCSS("clip-path", "inset(0px 50% 0px 0px)");
    }
  });
}
