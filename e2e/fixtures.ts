import { test as base, type Browser, type Page } from "@playwright/test";
import { AccountPage } from "./pages/account-page";
import { AdminPages } from "./pages/admin-pages";
import { ApiClient } from "./pages/api-client";
import { AuthPages } from "./pages/auth-pages";
import { DashboardPage } from "./pages/dashboard-page";
import { LandingPage } from "./pages/landing-page";
import { SearchPage } from "./pages/search-page";
import { E2E } from "./env";
import { localeOf, type Locale } from "./i18n";

/**
 * One person in their own browser context, with the page objects they use. The context's `locale`
 * option is the browser's language: the app starts in it and the page objects read it.
 */
export type Actor = {
  page: Page;
  locale: Locale;
  auth: AuthPages;
  landing: LandingPage;
  search: SearchPage;
  account: AccountPage;
  admin: AdminPages;
  dashboard: DashboardPage;
};

async function newActor(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<Actor> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const locale = localeOf(options);
  return {
    page,
    locale,
    auth: new AuthPages(page, locale),
    landing: new LandingPage(page, locale),
    search: new SearchPage(page, locale),
    account: new AccountPage(page, locale),
    admin: new AdminPages(page, locale),
    dashboard: new DashboardPage(page, locale),
  };
}

type Fixtures = {
  landing: LandingPage;
  api: ApiClient;
  /** Opens another person's browser context (closed with the test). */
  actor: (options?: Parameters<Browser["newContext"]>[0]) => Promise<Actor>;
};

export const test = base.extend<Fixtures>({
  // this worker's deployment (e2e/env.ts)
  baseURL: E2E.webUrl,
  landing: async ({ page }, use) => use(new LandingPage(page)),
  api: async ({ request }, use) => use(new ApiClient(request)),
  actor: async ({ browser, baseURL, serviceWorkers }, use) => {
    const actors: Actor[] = [];
    await use(async (options) => {
      const a = await newActor(browser, { baseURL, serviceWorkers, ...options });
      actors.push(a);
      return a;
    });
    await Promise.all(actors.map((a) => a.page.context().close()));
  },
});

export { expect } from "@playwright/test";
