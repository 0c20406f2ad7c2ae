import { expect, type Page } from "@playwright/test";
import { ACCOUNT_CODE } from "../../convex/rules/accountCodes";
import { E2E } from "../env";

/** A one-time code as a message writes it: its digits, standing alone. */
const CODE_IN_TEXT = new RegExp(`\\b(\\d{${ACCOUNT_CODE.digits}})\\b`);

/** The one-time code `text` (an email or SMS) holds; throws when it holds none. */
export function codeIn(text: string): string {
  const code = CODE_IN_TEXT.exec(text)?.[1];
  if (code === undefined) throw new Error(`no code in the message "${text}"`);
  return code;
}

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
   * The code of the newest message to `recipient` that holds one; with `about`, once the newest
   * message says it (an earlier code to the same number may still be the newest).
   */
  async code(kind: "Email" | "SMS", recipient: string, about = CODE_IN_TEXT): Promise<string> {
    const message = this.message(kind, recipient);
    await expect(message).toContainText(about);
    await expect(message).toContainText(CODE_IN_TEXT);
    return codeIn(await message.innerText());
  }

  async close() {
    await this.page.close();
  }
}
