import { expect, type Page } from "@playwright/test";
import { m, say, type Locale } from "../i18n";

/** The customer's account page: My Bookings. */
export class AccountPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = "en",
  ) {}

  async openBookings() {
    await this.page.goto("/customer/profile?tab=bookings");
    await expect(
      this.page.getByRole("heading", { name: say(this.locale, m.nav_my_bookings) }),
    ).toBeVisible();
  }

  /** A booking in My Bookings, found by its unique note. */
  booking(note: string) {
    return this.page.getByRole("listitem").filter({ hasText: note });
  }
}
