import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { createAdmin } from "../../create-admin";
import { expect, test } from "../../fixtures";
import { unique } from "../../env";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import { enrolAdmin, nextCode } from "../../two-factor";

/*
 * A language switch renders the page again in the new language without remounting it: what was
 * typed stays, and a flow under way goes on. Two ways a page switches: the header's switch, and a
 * sign-in whose profile language is not the device's. Phone-sized (360 px), photographed into
 * e2e/screenshots/switch-in-place/ (git-ignored).
 */

const PHONE = { width: 360, height: 740 };
const other = (locale: Locale): Locale => (locale === "en" ? "ne-NP" : "en");
/** The browser language a context starts in (fixtures.ts: the app picks it on a first visit). */
const browserLocale = (locale: Locale) => (locale === "en" ? "en-US" : "ne-NP");

async function photograph(page: Page, name: string) {
  mkdirSync("e2e/screenshots/switch-in-place", { recursive: true });
  await page.screenshot({ path: `e2e/screenshots/switch-in-place/${name}.png`, fullPage: false });
}

/** Marks an element; a remount would replace it with one that has no mark. */
async function mark(page: Page, selector: string) {
  await page.locator(selector).evaluate((el) => el.setAttribute("data-same-element", ""));
}

/** A new admin account to sign in with, its authenticator set up. */
async function newAdmin(): Promise<{ username: string; password: string }> {
  const admin = { username: `switch-${unique()}`, password: "switch-admin-password" };
  createAdmin(admin);
  await enrolAdmin(admin);
  return admin;
}

for (const device of LANGUAGES) {
  const profile = other(device);

  test(`the header switch keeps a half-filled form (${device} → ${profile})`, async ({ actor }) => {
    const { page } = await actor({ locale: browserLocale(device), viewport: PHONE });
    await page.goto("/contact");
    const name = page.getByLabel(say(device, m.contact_name));
    const email = page.getByLabel(say(device, m.label_email));
    const message = page.getByLabel(say(device, m.contact_message));
    await name.fill("Sita Sharma");
    await email.fill("sita@");
    await message.fill("The geyser leaks — can someone come on Sunday?");
    await name.focus(); // leaves the email field touched, showing its error
    await expect(page.getByText(say(device, m.rule_email))).toBeVisible();
    await mark(page, "form textarea");
    await photograph(page, `form-before-${device}`);

    await page
      .getByRole("group", { name: say(device, m.language_label) })
      .getByRole("button", { name: profile === "en" ? "EN English" : "ने नेपाली" })
      .click();

    await expect(page.locator("html")).toHaveAttribute("lang", profile);
    await expect(
      page.getByRole("heading", { name: say(profile, m.contact_form_title) }),
    ).toBeVisible();
    await expect(page.getByLabel(say(profile, m.contact_name))).toHaveValue("Sita Sharma");
    await expect(page.getByLabel(say(profile, m.label_email))).toHaveValue("sita@");
    await expect(page.getByLabel(say(profile, m.contact_message))).toHaveValue(
      "The geyser leaks — can someone come on Sunday?",
    );
    // the inline error is worded again in the new language
    await expect(page.getByText(say(profile, m.rule_email))).toBeVisible();
    await expect(page.locator("form textarea[data-same-element]")).toHaveCount(1);
    await photograph(page, `form-after-${profile}`);
  });

  test(`an admin whose profile is in ${profile} signs in on a device in ${device}`, async ({
    actor,
  }) => {
    test.setTimeout(90_000);
    const admin = await newAdmin();
    // On a first device the admin chooses the profile's language with the switch: that is saved.
    const first = await actor({ locale: browserLocale(profile) });
    const sync = first.page.waitForEvent("websocket", (ws) => ws.url().includes("/sync"));
    await first.auth.adminLogin(admin.username, admin.password);
    const saved = (await sync).waitForEvent("framereceived", (frame) =>
      String(frame.payload).includes('"MutationResponse"'),
    );
    await first.page
      .getByRole("group", { name: say(profile, m.language_label) })
      .getByRole("button", { name: profile === "en" ? /English/ : /नेपाली/ })
      .click();
    await saved;
    await first.page.context().close();

    const { page } = await actor({ locale: browserLocale(device), viewport: PHONE });
    await page.goto("/admin-login");
    await page.getByLabel(say(device, m.admin_login_username)).fill(admin.username);
    await page.getByLabel(say(device, m.label_password), { exact: true }).fill(admin.password);
    await mark(page, "form input[autocomplete=username]");
    // What the page is when the language changes, read by the page itself at that moment (the
    // login moves on to the panel half a second after it succeeds).
    const switched = page.evaluate(
      (to) =>
        new Promise<{ path: string; sameForm: boolean; username: string | undefined }>(
          (resolve) => {
            new MutationObserver(() => {
              if (document.documentElement.lang !== to) return;
              const input = document.querySelector<HTMLInputElement>("input[data-same-element]");
              resolve({
                path: location.pathname,
                sameForm: input !== null,
                username: input?.value,
              });
            }).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
          },
        ),
      profile,
    );
    const submit = page.getByRole("button", { name: say(device, m.admin_login_submit) });
    await submit.click();
    await page.getByLabel(say(device, m.admin_login_code)).fill(await nextCode(admin.username));
    await submit.click();

    expect(await switched).toEqual({
      path: "/admin-login",
      sameForm: true,
      username: admin.username,
    });
    await expect(page.getByText(say(profile, m.admin_login_ok))).toBeVisible();
    await photograph(page, `admin-login-${device}-device-${profile}-profile`);
    // the flow goes on: the panel, in the profile's language
    await expect(page).toHaveURL("/admin-panel");
    await expect(
      page
        .getByRole("navigation", { name: say(profile, m.admin_nav_label) })
        .getByRole("link", { name: say(profile, m.admin_nav_technicians) }),
    ).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", profile);
    await photograph(page, `admin-panel-${device}-device-${profile}-profile`);
  });
}
