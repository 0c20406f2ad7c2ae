import type { Page } from "@playwright/test";

/** The customer's account page: My Bookings. */
export class AccountPage {
  constructor(readonly page: Page) {}

  async openBookings() {
    await this.page.goto("/customer/profile");
    await this.page.getByRole("button", { name: "My Bookings" }).click();
  }

  /** A booking in My Bookings, found by its unique note. */
  booking(note: string) {
    return this.page.getByRole("listitem").filter({ hasText: note });
  }
}
