import { expect, type Page } from "@playwright/test";
import { m, say, type Locale } from "../i18n";

/** The admin panel: the technicians grid and a technician's documents dialog. */
export class AdminPages {
  constructor(
    readonly page: Page,
    readonly locale: Locale = "en",
  ) {}

  technicianCard(name: string) {
    return this.page.getByRole("button", { name: say(this.locale, m.admin_card_open, { name }) });
  }

  async openTechnician(name: string) {
    await this.technicianCard(name).click();
    const dialog = this.page.getByRole("dialog", { name });
    await expect(dialog).toBeVisible();
    return dialog;
  }
}
