import type { Page } from "@playwright/test";

export class LandingPage {
  constructor(readonly page: Page) {}

  readonly headline = () => this.page.getByRole("heading", { name: "anytime, anywhere." });

  async open() {
    await this.page.goto("/");
  }
}
