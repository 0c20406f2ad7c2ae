import { expect, type Page } from "@playwright/test";
import { E2E } from "../env";

/**
 * The local backend's outbox (local-backend/stand-ins/outbox.ts): every email and SMS the app sent,
 * newest first, live. Codes are read off it as a person reads them off their phone.
 */
export class OutboxPage {
  constructor(readonly page: Page) {}

  /** Opens the outbox in a new tab of the same browser, as someone checks their mail. */
  static async open(beside: Page): Promise<OutboxPage> {
    const page = await beside.context().newPage();
    await page.goto(`${E2E.siteUrl}/outbox`);
    await expect(page.getByRole("status")).toHaveText("Live.");
    return new OutboxPage(page);
  }

  /** The newest message to `recipient` (an email address or mobile number) once it arrives. */
  message(kind: "Email" | "SMS", recipient: string) {
    return this.page.getByRole("article", { name: `${kind} to ${recipient}` }).first();
  }

  /**
   * The 6-digit code of the newest message to `recipient` that holds one; with `about`, once the
   * newest message says it (an earlier code to the same number may still be the newest).
   */
  async code(kind: "Email" | "SMS", recipient: string, about = /\d{6}/): Promise<string> {
    const message = this.message(kind, recipient);
    await expect(message).toContainText(about);
    await expect(message).toContainText(/\d{6}/);
    return /\b(\d{6})\b/.exec((await message.innerText()) ?? "")![1]!;
  }

  async close() {
    await this.page.close();
  }
}
