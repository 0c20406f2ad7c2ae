import { expect, type Locator, type Page } from "@playwright/test";
import { m, say, type Locale } from "../i18n";

/** /services/search: service details, the live map and the professionals list with booking. */
export class SearchPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = "en",
  ) {}

  async open(serviceName: string, location: string) {
    await this.page.goto(`/services/search?${new URLSearchParams({ location, serviceName })}`);
  }

  /**
   * Types `text` into the header's search and takes its first suggestion: the search it opens. From
   * a search page the address already is a search's, so it waits for the next one.
   */
  async fromHeader(text: string): Promise<URLSearchParams> {
    const before = this.page.url();
    await this.page.getByRole("combobox", { name: say(this.locale, m.search_label) }).fill(text);
    const first = this.page.getByRole("option").first();
    await expect(first).toBeVisible();
    await first.click();
    await expect(this.page).toHaveURL(
      (url) => url.pathname === "/services/search" && url.href !== before,
    );
    return new URL(this.page.url()).searchParams;
  }

  /** Scrolls to the map, which loads only once it is on the screen (below the list on a phone). */
  async showMap() {
    const map = this.page.getByRole("region", { name: say(this.locale, m.sp_map_label) });
    // the map's place is replaced by the map while it loads (at 1280 px it loads by itself)
    await expect(() => map.scrollIntoViewIfNeeded({ timeout: 1000 })).toPass();
  }

  /** The Leaflet marker of a professional (its title starts with their name). */
  marker(name: string) {
    return this.page.locator(`.leaflet-marker-icon[title^="${name}"]`);
  }

  /** Where Leaflet has drawn the marker; changes when the position changes. */
  markerTransform(name: string) {
    return this.marker(name).evaluate((el) => (el as HTMLElement).style.transform);
  }

  /**
   * Books through the dialog; `services` are the names as the reader sees them, `firstService` ticks
   * the first listed service when the names are not known; `when` overrides the proposed time
   * (a datetime-local value in Nepal time).
   */
  async book(
    professionalName: string,
    {
      services,
      note,
      firstService = false,
      when,
    }: { services: string[]; note: string; firstService?: boolean; when?: string },
  ) {
    const p = this.page;
    const l = this.locale;
    const title = say(l, m.book_title, { name: professionalName });
    await p
      .getByRole("listitem")
      .filter({ hasText: professionalName })
      .getByRole("button", { name: title })
      .click();
    const dialog = p.getByRole("dialog", { name: title });
    if (firstService) await dialog.getByRole("checkbox").first().check();
    for (const service of services)
      await dialog.getByRole("checkbox", { name: new RegExp(`^${service}`) }).check();
    if (when) await dialog.getByLabel(say(l, m.book_when)).fill(when);
    await typeStreetIfNoneProposed(dialog, l);
    await dialog.getByLabel(say(l, m.book_note)).fill(note);
    await expect(dialog.locator("p", { hasText: say(l, m.book_total) })).toContainText(
      say(l, m.money_nrs, { amount: "" }).trim(),
    );
    await dialog.getByRole("button", { name: say(l, m.book_confirm) }).click();
    await expect(dialog).toBeHidden();
  }
}

/** The booking dialog proposes only a home in the booking's city: anyone else types a street. */
export async function typeStreetIfNoneProposed(dialog: Locator, locale: Locale = "en") {
  const address = dialog.getByLabel(say(locale, m.label_address), { exact: true });
  if ((await address.inputValue()) === "") await address.fill("Ward 4, Tribhuvan Chowk");
}
