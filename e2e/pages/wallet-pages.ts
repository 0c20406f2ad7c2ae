import { expect, type Page } from "@playwright/test";

/**
 * The local backend's eSewa and Khalti stand-ins (local-backend/stand-ins/): their hosted pages,
 * where a tester signs in with a published test wallet and pays, cancels or lets it expire.
 */
export class WalletPages {
  constructor(private readonly page: Page) {}

  async payWithEsewa() {
    const p = this.page;
    await expect(p.getByRole("heading", { name: "eSewa" })).toBeVisible();
    await p.getByLabel("eSewa ID").fill("9806800001");
    await p.getByLabel("Password").fill("Nepal@123");
    await p.getByLabel("OTP token").fill("123456");
    await p.getByRole("button", { name: /^Pay Rs\./ }).click();
  }

  async payWithKhalti() {
    const p = this.page;
    await expect(p.getByRole("heading", { name: "Khalti" })).toBeVisible();
    await p.getByLabel("Khalti ID (mobile)").fill("9800000001");
    await p.getByLabel("MPIN").fill("1111");
    await p.getByLabel("OTP").fill("987654");
    await p.getByRole("button", { name: /^Pay Rs\./ }).click();
  }

  /** The amount the gateway was asked for, as its page shows it ("Rs. 1,500.0"). */
  amount() {
    return this.page.getByRole("region", { name: "Payment" }).locator("dd").nth(1);
  }

  async cancel() {
    await this.page.getByRole("button", { name: "Cancel payment" }).click();
  }

  async letExpire() {
    await this.page.getByRole("button", { name: "Let it expire now" }).click();
  }
}
