import { expect, type Page } from "@playwright/test";
import { m, say, type Locale } from "../i18n";

/**
 * Password and devices: the account page's tab (customers and professionals) and the admin's
 * account page show the same panel.
 */
export class SecurityPanel {
  constructor(
    readonly page: Page,
    readonly locale: Locale = "en",
  ) {}

  static readonly customer = "/customer/profile?tab=security";
  static readonly professional = "/professional/account?tab=security";
  static readonly admin = "/admin/account";

  async open(path: string) {
    await this.page.goto(path);
    await expect(this.changeForm()).toBeVisible();
  }

  changeForm() {
    return this.page.getByRole("region", { name: say(this.locale, m.security_change_password) });
  }

  async changePassword(current: string, next: string) {
    const form = this.changeForm();
    const l = this.locale;
    await form.getByLabel(say(l, m.security_current_password), { exact: true }).fill(current);
    await form.getByLabel(say(l, m.reset_new_password), { exact: true }).fill(next);
    await form.getByRole("button", { name: say(l, m.security_change_password) }).click();
  }

  devices() {
    return this.page
      .getByRole("region", { name: say(this.locale, m.devices_title) })
      .getByRole("listitem");
  }

  /** The device marked "This device". */
  thisDevice() {
    return this.devices().filter({ hasText: say(this.locale, m.devices_this_device) });
  }

  /** Signs out the one other device in the list. */
  async signOutOtherDevice() {
    const other = this.devices().filter({
      hasNotText: say(this.locale, m.devices_this_device),
    });
    await other.getByRole("button", { name: say(this.locale, m.devices_sign_out) }).click();
  }
}

/** `other` is signed out live: told so, and its header offers the login again. */
export async function expectSignedOutLive(other: { page: Page; locale: Locale }) {
  const l = other.locale;
  await expect(other.page.getByText(say(l, m.session_ended_here))).toBeVisible();
  await expect(
    other.page
      .getByRole("banner")
      .getByRole("link", { name: say(l, m.nav_login), exact: true })
      .filter({ visible: true }),
  ).toBeVisible();
}
