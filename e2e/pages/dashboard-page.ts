import { expect, type Page } from "@playwright/test";
import { png } from "../env";
import { m, say, type Locale, type PlainMessage } from "../i18n";

/** The professional dashboard at /professional-dashboard. */
export class DashboardPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = "en",
  ) {}

  async open() {
    await this.page.goto("/professional-dashboard");
  }

  /** Taps one of the dashboard's section tabs (its label from the catalogue). */
  async openSection(label: PlainMessage) {
    const l = this.locale;
    await this.page
      .getByRole("navigation", { name: say(l, m.dash_sections) })
      .getByRole("link", { name: say(l, label) })
      .click();
  }

  /** The profile card's status line (found while its section is hidden too). */
  accountStatus() {
    return this.page
      .locator("dt", { hasText: say(this.locale, m.pc_account_status) })
      .locator("xpath=following-sibling::dd[1]");
  }

  /** Re-submits all three documents from the profile card of a rejected professional. */
  async resubmitDocuments() {
    const l = this.locale;
    const resubmit = say(l, m.pc_resubmit);
    await this.openSection(m.dash_tab_hours);
    await this.page.getByRole("button", { name: resubmit }).click();
    const form = this.page.getByRole("form", { name: resubmit });
    const documents = [
      [m.doc_citizenship_front, "new-citizenship-front.png"],
      [m.doc_citizenship_back, "new-citizenship-back.png"],
      [m.doc_training_certificate, "new-training-certificate.png"],
    ] as const;
    for (const [document, file] of documents)
      await form
        .getByLabel(say(l, m.rs_new_label, { document: say(l, document) }))
        .setInputFiles(png(file));
    await expect(
      form.getByRole("img", {
        name: say(l, m.rs_alt_new, { document: say(l, m.doc_training_certificate) }),
      }),
    ).toBeVisible();
    await form.getByRole("button", { name: say(l, m.rs_send) }).click();
    await expect(this.page.getByText(say(l, m.rs_sent))).toBeVisible();
  }

  /** The bookings panel. */
  bookings() {
    return this.page.getByRole("region", { name: say(this.locale, m.label_bookings) });
  }

  /** A booking in the bookings panel, found by the customer's unique note. */
  booking(note: string) {
    return this.bookings().getByRole("listitem").filter({ hasText: note });
  }
}
