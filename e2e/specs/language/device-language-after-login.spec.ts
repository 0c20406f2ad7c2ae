import type { Page } from "@playwright/test";
import { createAdmin } from "../../create-admin";
import { enrolAdmin } from "../../two-factor";
import { expect, test, type Actor } from "../../fixtures";
import { unique, uniquePhone } from "../../env";
import { m, say } from "../../i18n";

/*
 * The device's language wins unless the person switched language themselves: a sign-in on an
 * English laptop does not make a Nepali phone English afterwards, for customers, professionals and
 * admins. Only an explicit switch is saved to the profile, and a device without a choice of its own
 * adopts it. Each test records the language the phone shows once signed in (`language after login`).
 */

const PHONE = { width: 360, height: 740 };
const NEPALI_PHONE = { locale: "ne-NP", viewport: PHONE } as const;
const ENGLISH_LAPTOP = { locale: "en-US", viewport: { width: 1280, height: 800 } } as const;

type Account = {
  role: string;
  /** Signs in and waits until the signed-in page has the profile (so its language is settled). */
  signIn: (person: Actor) => Promise<void>;
};

function customer(email: string): Account {
  return {
    role: "customer",
    signIn: async ({ page, locale }) => {
      await page.goto("/login");
      await page.getByLabel(say(locale, m.label_email)).fill(email);
      await page.getByLabel(say(locale, m.label_password), { exact: true }).fill("demo-password-1");
      await page.getByRole("radio", { name: say(locale, m.role_customer) }).check();
      await page.getByRole("button", { name: say(locale, m.login_button) }).click();
      await expect(page).toHaveURL("/");
      await page.goto("/customer/profile");
      await expect(page.locator("main h1")).toBeVisible();
    },
  };
}

function professional(email: string): Account {
  return {
    role: "professional",
    signIn: async (person) => {
      await person.auth.professionalSignIn(email, "demo-password-1");
      await expect(person.page.locator("main h1").first()).toBeVisible();
      await expect(person.page.getByRole("region").first()).toBeVisible();
    },
  };
}

function admin(): Account {
  const account = { username: `lang-${unique()}`, password: "lang-admin-password" };
  createAdmin(account);
  const enrolled = enrolAdmin(account);
  return {
    role: "admin",
    signIn: async (person) => {
      await enrolled;
      await person.auth.adminLogin(account.username, account.password);
      await expect(person.page.getByRole("navigation").first()).toBeVisible();
    },
  };
}

async function languageOf(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.lang);
}

const accounts: [string, () => Account][] = [
  ["customer", () => customer("customer2@demo.np")],
  ["professional", () => professional("aluminium.mahendranagar@demo.np")],
  ["admin", admin],
];

for (const [role, make] of accounts) {
  test(`${role === "admin" ? "an" : "a"} ${role} who signed in on an English laptop still gets Nepali on a Nepali phone`, async ({
    actor,
  }) => {
    test.setTimeout(90_000);
    const account = make();
    const laptop = await actor(ENGLISH_LAPTOP);
    await account.signIn(laptop);
    expect(await languageOf(laptop.page)).toBe("en");
    await laptop.page.context().close();

    const phone = await actor(NEPALI_PHONE);
    await account.signIn(phone);
    const after = await languageOf(phone.page);
    test.info().annotations.push({ type: "language after login", description: after });
    expect(after).toBe("ne-NP");
    await phone.page.reload();
    await expect(phone.page.locator("main h1").first()).toBeVisible();
    expect(await languageOf(phone.page)).toBe("ne-NP");
  });
}

test("a language chosen with the switch follows the customer to a device without a choice", async ({
  actor,
}) => {
  test.setTimeout(90_000);
  const id = unique();
  const me = {
    name: `Sita Sharma ${id}`,
    email: `sita.lang.${id}@example.np`,
    phone: uniquePhone(),
    password: "sita-password-1",
    address: "Ward 4, Tribhuvan Chowk, Nepalgunj",
    zipCode: "21900",
  };
  const phone = await actor(NEPALI_PHONE);
  await phone.auth.signUpCustomer(me);
  // the explicit choice: English, on the Nepali phone
  await phone.page
    .getByRole("group", { name: say("ne-NP", m.language_label) })
    .getByRole("button", { name: "EN English" })
    .click();
  await expect(phone.page.locator("html")).toHaveAttribute("lang", "en");

  // a second Nepali phone that has made no choice of its own adopts it at sign-in
  const other = await actor(NEPALI_PHONE);
  await other.page.goto("/login");
  await other.page.getByLabel(say("ne-NP", m.label_email)).fill(me.email);
  await other.page.getByLabel(say("ne-NP", m.label_password), { exact: true }).fill(me.password);
  await other.page.getByRole("radio", { name: say("ne-NP", m.role_customer) }).check();
  await other.page.getByRole("button", { name: say("ne-NP", m.login_button) }).click();
  await expect(other.page).toHaveURL("/");
  await expect(other.page.locator("html")).toHaveAttribute("lang", "en");
});
