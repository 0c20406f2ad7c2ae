import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { DEMO_CUSTOMERS, DEMO_PROFESSIONALS, STATE_OF_CITY } from "../../../convex/model/demoData";
import { expect, test, type Actor } from "../../fixtures";
import { E2E, unique, uniquePhone } from "../../env";
import { LANGUAGES, m, say, type Locale } from "../../i18n";

/*
 * No visible text of the main pages is left in the other language: in Nepali no English word, in
 * English no Devanagari. Text nodes, aria-labels, placeholders, titles and alt texts are read from the
 * rendered page. Left out on purpose: passages marked with their own `lang` (the language switch, the
 * first-visit offer), proper names (below) and the seeded people's own data.
 * In Nepali, every page is also photographed at 360 px into e2e/screenshots/ne-NP/ (git-ignored).
 * Devanagari is drawn in the app's own fonts on every page of both languages (the test machine has no
 * Devanagari font of its own: any other font would draw boxes), an English visit fetches no full
 * Devanagari face, and a Nepali visit fetches the bold Devanagari face with the page, before its
 * headings first show.
 */

/** Names that stay as they are in both languages. */
const PROPER_NAMES = [
  "GharSewa",
  "घर सेवा",
  "eSewa",
  "Khalti",
  "Leaflet",
  "OpenStreetMap",
  "Google",
  // image formats and sizes named in upload hints
  "JPEG",
  "PNG",
  "WebP",
  "GIF",
  "MB",
  "JSON",
  // the digits a phone number starts with, then a mask for the rest
  "XXXXXXXX",
  // the toasts' keyboard shortcut, as the toast library names it
  "alt+T",
  // sponsors
  "Suraksha Life Insurance",
];

/**
 * What the seeded people typed themselves (names, also as "Sita S." on reviews, addresses, states)
 * and the name the admin accounts are created with: not the app's words.
 */
const SEEDED_DATA = [
  ...[...DEMO_CUSTOMERS, ...DEMO_PROFESSIONALS].flatMap((p) => {
    const [first, ...rest] = p.name.split(" ");
    return [p.name, `${first} ${rest.at(-1)![0]}.`, p.email, p.address];
  }),
  "Administrator",
  ...Object.values(STATE_OF_CITY),
  E2E.admin.username,
  E2E.adminNe.username,
];

const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
/** People the other specs create in the shared e2e database: up to three words, then `unique()`. */
const E2E_PERSON = /(?:[\p{L}\p{M}]+ ){1,3}[0-9a-z]{10,12}(?![0-9a-z])/gu;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const allowed = new RegExp(
  [...SEEDED_DATA, ...PROPER_NAMES]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|"),
  "g",
);

/**
 * Whether a text still has words of the other language once names and data are taken out; in
 * Nepali, Latin digits count too (numbers are written in Devanagari).
 */
function foreign(text: string, locale: Locale): boolean {
  const rest = text.replace(EMAIL, " ").replace(E2E_PERSON, " ").replace(allowed, " ");
  return locale === "ne-NP" ? /[A-Za-z]{2,}|[0-9]/.test(rest) : /[\u0900-\u097F]/.test(rest);
}

type Found = { text: string; where?: string };

/**
 * Every visible text node and labelling attribute of the page (`where` names the attribute). Skipped:
 * passages marked with another `lang`, and people's own words marked `translate="no"`.
 */
async function visibleTexts(page: Page): Promise<Found[]> {
  return page.evaluate(() => {
    const lang = (document.documentElement.lang || "en").split("-")[0];
    const own = (el: Element) =>
      (el.closest("[lang]")?.getAttribute("lang") ?? lang).split("-")[0] === lang &&
      !el.closest('[translate="no"]');
    const shown = (el: Element) =>
      el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    const found: { text: string; where?: string }[] = [{ text: document.title, where: "title" }];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.replace(/\s+/g, " ").trim();
      if (!text || !parent || parent.closest("script, style, noscript")) continue;
      if (shown(parent) && own(parent)) found.push({ text });
    }
    const labelled = document.body.querySelectorAll(
      "[aria-label], [placeholder], [title], img[alt]",
    );
    for (const el of Array.from(labelled)) {
      if (!shown(el) || !own(el)) continue;
      for (const name of ["aria-label", "placeholder", "title", "alt"]) {
        const value = el.getAttribute(name)?.trim();
        if (value) found.push({ text: value, where: name });
      }
    }
    return found;
  });
}

/**
 * The app's fonts (src/index.css), the only ones with Devanagari on the test machine: the full face,
 * and the one cut down to the brand and the language switch (src/i18n/devanagari-chrome.ts).
 */
const APP_FONTS = ["Noto Sans Devanagari", "GharSewa Chrome"];

/**
 * Visible Devanagari texts not drawn in the app's fonts once fonts have loaded: set in another
 * family first, or in a weight of it that never loaded. Each such text shows as boxes on a device
 * without a Devanagari font.
 */
async function devanagariOutsideTheAppFonts(page: Page): Promise<string[]> {
  return page.evaluate(async (fonts) => {
    await document.fonts.ready;
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim() ?? "";
      if (!parent || !/[\u0900-\u097F]/.test(text)) continue;
      if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const style = getComputedStyle(parent);
      const first = style.fontFamily
        .split(",")[0]
        .trim()
        .replace(/^["']|["']$/g, "");
      if (!fonts.includes(first)) found.push(`${text} (in ${style.fontFamily})`);
      else if (!document.fonts.check(`${style.fontWeight} 16px "${first}"`, text))
        found.push(`${text} (weight ${style.fontWeight} of ${first} not loaded)`);
    }
    return found;
  }, APP_FONTS);
}

/**
 * How the page fetched the full Devanagari face of a weight over the network: "link" (preloaded),
 * "css" (on first use), or null. (A face already in the browser's cache is loaded with any page that
 * declares it, used or not: that costs no download and is not counted.)
 */
async function devanagariFaceFetchedBy(page: Page, weight: 400 | 600): Promise<string | null> {
  return page.evaluate(
    (file) =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find(
        (r) => r.name.includes(file) && r.transferSize > 0,
      )?.initiatorType ?? null,
    `noto-sans-devanagari-devanagari-${weight}-normal`,
  );
}

/** Waits until the page's data has arrived: no spinner is left. */
async function settled(page: Page) {
  await expect(page.locator('[role="status"]:has(.animate-spin)')).toHaveCount(0, {
    timeout: 15_000,
  });
}

/**
 * Checks one page (softly, so every page of the group is reported) and, in Nepali, photographs it at
 * 360 px wide.
 */
async function check(actor: Actor, name: string, open: () => Promise<unknown>) {
  const { page, locale } = actor;
  await page.setViewportSize({ width: 1280, height: 900 });
  await open();
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await settled(page);
  const texts = (await visibleTexts(page))
    .filter(({ text }) => foreign(text, locale))
    .map(({ text, where }) => (where ? `${where}: ${text}` : text));
  expect.soft(texts, `${name} (${page.url()}) in ${locale}: other-language texts`).toEqual([]);
  expect
    .soft(
      await devanagariOutsideTheAppFonts(page),
      `${name} in ${locale}: Devanagari in other fonts`,
    )
    .toEqual([]);
  if (locale === "ne-NP") {
    await page.setViewportSize({ width: 360, height: 740 });
    await settled(page);
    mkdirSync("e2e/screenshots/ne-NP", { recursive: true });
    await page.screenshot({ path: `e2e/screenshots/ne-NP/${name}.png`, fullPage: true });
  }
}

const adminOf = (locale: Locale) => (locale === "ne-NP" ? E2E.adminNe : E2E.admin);

for (const locale of LANGUAGES) {
  test.describe(`in ${locale}`, () => {
    test("the visitor's pages hold no text in the other language", async ({ actor }) => {
      test.setTimeout(120_000);
      const visitor = await actor({ locale });
      const p = visitor.page;
      const go = (path: string) => () => p.goto(path);
      await check(visitor, "landing", go("/"));
      expect(await devanagariFaceFetchedBy(p, 600)).toBe(locale === "ne-NP" ? "link" : null);
      await check(visitor, "about", go("/about"));
      // in English, the header's and About's Devanagari come with the stylesheet (the landing's
      // Nepali sponsor needed the full face there)
      if (locale === "en") expect(await devanagariFaceFetchedBy(p, 400)).toBeNull();
      await check(visitor, "contact", go("/contact"));
      await check(visitor, "services", go("/services"));
      await check(visitor, "tile-marble", go("/services-tile-Marbal"));
      await check(
        visitor,
        "search",
        go("/services/search?location=Nepalgunj&serviceName=Electrician"),
      );
      // a chosen service's details: price, unit, warranty, description
      await check(visitor, "search-service", () =>
        p.getByLabel(say(locale, m.sp_select_service), { exact: true }).selectOption({ index: 1 }),
      );
      const profileLink = p.locator('a[href^="/professionals/"]').first();
      const profile = await profileLink.getAttribute("href");
      await check(visitor, "professional-profile", go(profile ?? "/professionals/unknown"));
      await check(visitor, "login", go("/login"));
      await check(visitor, "signup", go("/signup"));
      await check(visitor, "customer-signup", go("/user-signup"));
      await check(visitor, "professional-signup", go("/professional/signup"));
      await check(visitor, "professional-signin", go("/professional-signin"));
      await check(visitor, "admin-login", go("/admin-login"));
    });

    test("the customer's account holds no text in the other language", async ({ actor }) => {
      const id = unique();
      const customer = await actor({ locale });
      await customer.auth.signUpAndLogInCustomer({
        name: locale === "ne-NP" ? "गीता थापा" : "Gita Thapa",
        email: `gita.${id}@example.np`,
        phone: uniquePhone(),
        password: "gita-password-1",
        address: locale === "ne-NP" ? "बानेश्वर-१०, काठमाडौं" : "Baneshwor-10, Kathmandu",
        zipCode: "44600",
      });
      const go = (path: string) => () => customer.page.goto(path);
      for (const tab of ["profile", "bookings", "notifications", "billing", "export", "delete"])
        await check(customer, `customer-${tab}`, go(`/customer/profile?tab=${tab}`));
    });

    test("the professional's dashboard holds no text in the other language", async ({ actor }) => {
      const id = unique();
      const pro = await actor({ locale });
      const ne = locale === "ne-NP";
      const details = {
        name: ne ? "हरि खड्का" : "Hari Khadka",
        email: `hari.${id}@example.np`,
        phone: uniquePhone(),
        password: "hari-password-1",
        address: ne ? "वीरेन्द्रनगर-६, सुर्खेत" : "Birendranagar-6, Surkhet",
        zipCode: "21700",
        city: "Surkhet",
        state: ne ? "कर्णाली" : "Karnali",
        specialty: "Mason",
      };
      await pro.auth.signUpProfessional(details);
      await pro.auth.professionalSignIn(details.email, details.password);
      await check(pro, "professional-dashboard", () => pro.dashboard.open());
    });

    test("the admin pages hold no text in the other language", async ({ actor }) => {
      const admin = await actor({ locale });
      const { username, password } = adminOf(locale);
      await admin.auth.adminLogin(username, password);
      const go = (path: string) => () => admin.page.goto(path);
      await check(admin, "admin-dashboard", go("/admin/dashboard"));
      await check(admin, "admin-users", async () => {
        await admin.page.goto("/admin/users");
        // only seeded people: other specs' accounts carry Latin test names
        await admin.page.getByRole("searchbox").fill(DEMO_CUSTOMERS[0].email);
      });
      // Mahendranagar has only seeded professionals.
      await check(admin, "admin-technicians", go("/admin/technicians?city=mahendranagar"));
      const demo = DEMO_PROFESSIONALS.find((p) => p.city === "mahendranagar")!;
      await check(admin, "admin-documents", async () => {
        await admin.page.goto("/admin/technicians?city=mahendranagar");
        await admin.admin.openTechnician(demo.name);
      });
      await check(admin, "admin-bookings", go("/admin/bookings"));
      await check(admin, "admin-reports", go("/admin/reports"));
      await check(admin, "admin-messages", go("/admin/messages"));
      await check(admin, "admin-settings", go("/admin/settings"));
    });
  });
}
