import { expect, type Page } from "@playwright/test";

/** The admin panel: the technicians grid and a technician's documents dialog. */
export class AdminPages {
  constructor(readonly page: Page) {}

  technicianCard(name: string) {
    return this.page.getByRole("button", { name: `${name}, view documents` });
  }

  async openTechnician(name: string) {
    await this.technicianCard(name).click();
    const dialog = this.page.getByRole("dialog", { name });
    await expect(dialog).toBeVisible();
    return dialog;
  }
}
