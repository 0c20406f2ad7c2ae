import type { Page } from "@playwright/test";

/** The professional dashboard at /professional-dashboard. */
export class DashboardPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto("/professional-dashboard");
  }

  accountStatus() {
    return this.page.locator("dt", { hasText: "Account status" }).locator("xpath=following-sibling::dd[1]");
  }

  /** A booking in the bookings panel, found by the customer's unique note. */
  booking(note: string) {
    return this.page.getByRole("region", { name: "Bookings" }).getByRole("listitem").filter({ hasText: note });
  }
}
