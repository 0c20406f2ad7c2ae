import { expect, type Page } from "@playwright/test";
import { png } from "../env";

/** The professional dashboard at /professional-dashboard. */
export class DashboardPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto("/professional-dashboard");
  }

  accountStatus() {
    return this.page
      .locator("dt", { hasText: "Account status" })
      .locator("xpath=following-sibling::dd[1]");
  }

  /** Re-submits all three documents from the profile card of a rejected professional. */
  async resubmitDocuments() {
    await this.page.getByRole("button", { name: "Re-submit documents" }).click();
    const form = this.page.getByRole("form", { name: "Re-submit documents" });
    await form.getByLabel("New Citizenship Front").setInputFiles(png("new-citizenship-front.png"));
    await form.getByLabel("New Citizenship Back").setInputFiles(png("new-citizenship-back.png"));
    await form
      .getByLabel("New Training Certificate")
      .setInputFiles(png("new-training-certificate.png"));
    await expect(form.getByRole("img", { name: "Training Certificate (new)" })).toBeVisible();
    await form.getByRole("button", { name: "Send for review" }).click();
    await expect(
      this.page.getByText("Documents sent. An admin will review them again."),
    ).toBeVisible();
  }

  /** A booking in the bookings panel, found by the customer's unique note. */
  booking(note: string) {
    return this.page
      .getByRole("region", { name: "Bookings" })
      .getByRole("listitem")
      .filter({ hasText: note });
  }
}
