import type { Page } from "@playwright/test";
import { expect, test } from "../../fixtures";

/**
 * /services paints its category cards without Radix's popover code, which loads once the
 * page is idle. A card pressed (or focused) before that code arrives still opens on that first press.
 */
async function holdPopoverCode(p: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let loaded = () => {};
  const done = new Promise<void>((resolve) => (loaded = resolve));
  await p.route(/category-popover-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
    loaded();
  });
  return { release, done };
}

const firstCard = (p: Page) =>
  p.getByRole("region", { name: "Our Services" }).getByRole("button").first();

test("a card tapped before the popover's code has loaded opens on that tap", async ({ actor }) => {
  const visitor = await actor({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });
  const p = visitor.page;
  const code = await holdPopoverCode(p);
  await p.goto("/services");
  const card = firstCard(p);
  await expect(card).toHaveAttribute("aria-expanded", "false");
  await expect(card).toHaveAttribute("aria-haspopup", "dialog");
  await p.screenshot({ path: "e2e/screenshots/services-plain-cards-360.png" });
  await card.click();
  code.release();
  const dialog = p.getByRole("dialog");
  await expect(dialog.getByRole("link").first()).toBeVisible();
  await expect(card).toHaveAttribute("aria-expanded", "true");
  await p.screenshot({ path: "e2e/screenshots/services-card-open-360.png" });
  await p.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(card).toBeFocused();
  await card.click();
  await expect(dialog.getByRole("link").first()).toBeVisible();
});

test("a card focused from the keyboard keeps the focus when the code arrives and opens with Enter", async ({
  actor,
}) => {
  const visitor = await actor({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });
  const p = visitor.page;
  const code = await holdPopoverCode(p);
  await p.goto("/services");
  const card = firstCard(p);
  await card.focus();
  const plain = await card.elementHandle();
  code.release();
  await code.done;
  // Radix's trigger replaces the plain card.
  await expect.poll(() => plain?.evaluate((button) => button.isConnected)).toBe(false);
  await expect(card).toBeFocused();
  await p.keyboard.press("Enter");
  await expect(p.getByRole("dialog").getByRole("link").first()).toBeVisible();
});
