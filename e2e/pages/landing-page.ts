import type { Page } from "@playwright/test";
import { m, say, type Locale } from "../i18n";

export class LandingPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = "en",
  ) {}

  readonly headline = () =>
    this.page.getByRole("heading", { name: say(this.locale, m.hero_title) });

  async open() {
    await this.page.goto("/");
  }
}
