import { expect, type Page } from "@playwright/test";

/** /services/search: service details, the live map and the professionals list with booking. */
export class SearchPage {
  constructor(readonly page: Page) {}

  async open(serviceName: string, location: string) {
    await this.page.goto(`/services/search?${new URLSearchParams({ location, serviceName })}`);
  }

  /** The Leaflet marker of a professional (its title starts with their name). */
  marker(name: string) {
    return this.page.locator(`.leaflet-marker-icon[title^="${name}"]`);
  }

  /** Where Leaflet has drawn the marker; changes when the position changes. */
  markerTransform(name: string) {
    return this.marker(name).evaluate((el) => (el as HTMLElement).style.transform);
  }

  /** Books through the dialog; `firstService` ticks the first listed service when the names are not known. */
  async book(
    professionalName: string,
    {
      services,
      note,
      firstService = false,
    }: { services: string[]; note: string; firstService?: boolean },
  ) {
    const p = this.page;
    await p
      .getByRole("listitem")
      .filter({ hasText: professionalName })
      .getByRole("button", { name: "Book" })
      .click();
    const dialog = p.getByRole("dialog", { name: `Book ${professionalName}` });
    if (firstService) await dialog.getByRole("checkbox").first().check();
    for (const service of services)
      await dialog.getByRole("checkbox", { name: new RegExp(`^${service}`) }).check();
    await dialog.getByLabel("Note for the professional (optional)").fill(note);
    await expect(dialog.locator("p", { hasText: "Total price" })).toContainText("Nrs.");
    await dialog.getByRole("button", { name: "Confirm booking" }).click();
    await expect(dialog).toBeHidden();
  }
}
