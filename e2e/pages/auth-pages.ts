import { expect, type Page } from "@playwright/test";
import { png } from "../env";

export type NewUser = {
  name: string;
  email: string;
  phone: string;
  password: string;
  address: string;
  zipCode: string;
};
export type NewProfessional = NewUser & { city: string; state: string; specialty: string };

/** Sign-up and the three sign-in screens (customer/professional login, professional sign-in, admin login). */
export class AuthPages {
  constructor(readonly page: Page) {}

  private async fillAccount(user: NewUser) {
    const p = this.page;
    await p.getByLabel("Full Name").fill(user.name);
    await p.getByLabel("Email").fill(user.email);
    await p.getByLabel("Phone Number").fill(user.phone);
    await p.getByLabel("Password", { exact: true }).fill(user.password);
    await p.getByLabel("Address").fill(user.address);
    await p.getByLabel("Zip Code").fill(user.zipCode);
  }

  async signUpCustomer(user: NewUser) {
    await this.page.goto("/user-signup");
    await this.fillAccount(user);
    await this.page.getByRole("button", { name: "Create Account" }).click();
    await expect(this.page).toHaveURL("/login");
  }

  /** A new customer account, signed in. */
  async signUpAndLogInCustomer(user: NewUser) {
    await this.signUpCustomer(user);
    await this.login(user.email, user.password, "Customer");
  }

  async signUpProfessional(pro: NewProfessional) {
    const p = this.page;
    await p.goto("/professional/signup");
    await this.fillAccount(pro);
    await p.getByLabel("City").selectOption({ label: pro.city });
    await p.getByLabel("State").fill(pro.state);
    await p.getByLabel("Specialty").selectOption({ label: pro.specialty });
    await p.getByLabel("Citizenship Front").setInputFiles(png("citizenship-front.png"));
    await p.getByLabel("Citizenship Back").setInputFiles(png("citizenship-back.png"));
    await p.getByLabel("Training Certificate").setInputFiles(png("training-certificate.png"));
    await p.getByRole("button", { name: "Create Account" }).click();
    await expect(p).toHaveURL("/login", { timeout: 20_000 });
  }

  async login(email: string, password: string, role: "Customer" | "Professional") {
    const p = this.page;
    await p.goto("/login");
    await p.getByLabel("Email").fill(email);
    await p.getByLabel("Password", { exact: true }).fill(password);
    await p.getByRole("radio", { name: role }).check();
    await p.getByRole("button", { name: "Login" }).click();
    await expect(p).toHaveURL("/");
  }

  async professionalSignIn(email: string, password: string) {
    const p = this.page;
    await p.goto("/professional-signin");
    await p.getByLabel("Email").fill(email);
    await p.getByLabel("Password", { exact: true }).fill(password);
    await p.getByRole("button", { name: "Sign in" }).click();
    await expect(p).toHaveURL("/professional-dashboard");
  }

  async adminLogin(username: string, password: string) {
    const p = this.page;
    await p.goto("/admin-login");
    await p.getByLabel("Username").fill(username);
    await p.getByLabel("Password", { exact: true }).fill(password);
    await p.getByRole("button", { name: "Login" }).click();
    await expect(p.getByText("Login successful")).toBeVisible();
    await expect(p).toHaveURL("/admin-panel");
  }
}
