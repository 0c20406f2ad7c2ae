import { test as base } from "@playwright/test";
import { LandingPage } from "./pages/landing-page";

type Pages = { landing: LandingPage };

export const test = base.extend<Pages>({
  landing: async ({ page }, use) => use(new LandingPage(page)),
});

export { expect } from "@playwright/test";
