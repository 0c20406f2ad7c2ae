import { expect, test } from "../../fixtures";

test("a visitor lands on the home page and sees the headline", async ({ landing, page }) => {
  await landing.open();
  await expect(landing.headline()).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/landing.png", fullPage: true });
});

test("an unknown path redirects to the home page", async ({ landing, page }) => {
  await page.goto("/no/such/page");
  await expect(page).toHaveURL("/");
  await expect(landing.headline()).toBeVisible();
});
