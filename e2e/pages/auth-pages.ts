import { expect, type Page } from "@playwright/test";
import { CITIES, SPECIALTIES } from "../../convex/constants";
import { png } from "../env";
import { m, say, type Locale } from "../i18n";
import { toDevanagariDigits, toLatinDigits } from "../../src/lib/digits";
import { nextCode } from "../two-factor";
import { OutboxPage } from "./outbox-page";

/**
 * How long a sign-in or sign-up may take: the server hashes passwords at a low priority, so that
 * other clients stay fast, and on a busy machine that takes seconds.
 */
const SIGNED_IN = { timeout: 30_000 };

export type NewUser = {
  name: string;
  email: string;
  phone: string;
  password: string;
  address: string;
  zipCode: string;
};
/** `city` and `specialty` by their English names ("Nepalgunj", "Jyotish"), in either language. */
export type NewProfessional = NewUser & { city: string; state: string; specialty: string };

function slugOf(list: readonly { slug: string; name: string }[], name: string): string {
  const found = list.find((item) => item.name === name || item.slug === name);
  if (!found) throw new Error(`unknown option ${name}`);
  return found.slug;
}

/**
 * Sign-up and the three sign-in screens (customer/professional login, professional sign-in, admin
 * login), read in the browser's language: labels and buttons come from the app's catalogues.
 */
export class AuthPages {
  constructor(
    readonly page: Page,
    readonly locale: Locale = "en",
  ) {}

  /** Fills the account fields every sign-up form has. */
  async fillAccount(user: NewUser) {
    const p = this.page;
    const l = this.locale;
    await p.getByLabel(say(l, m.field_full_name)).fill(user.name);
    await p.getByLabel(say(l, m.label_email)).fill(user.email);
    await p.getByLabel(say(l, m.field_phone)).fill(user.phone);
    await p.getByLabel(say(l, m.label_password), { exact: true }).fill(user.password);
    await p.getByLabel(say(l, m.label_address)).fill(user.address);
    await p.getByLabel(say(l, m.label_zip_code)).fill(user.zipCode);
  }

  /** A new customer account: sign-up signs them in and lands on the home page. */
  async signUpCustomer(user: NewUser) {
    await this.page.goto("/user-signup");
    await this.fillAccount(user);
    await this.page.getByRole("button", { name: say(this.locale, m.signup_button) }).click();
    await expect(this.page).toHaveURL("/", SIGNED_IN);
  }

  /** A new customer account, signed in (sign-up signs in). */
  async signUpAndLogInCustomer(user: NewUser) {
    await this.signUpCustomer(user);
  }

  async signUpProfessional(pro: NewProfessional) {
    const p = this.page;
    const l = this.locale;
    await p.goto("/professional/signup");
    await this.fillAccount(pro);
    await p.getByLabel(say(l, m.label_city)).selectOption(slugOf(CITIES, pro.city));
    await p.getByLabel(say(l, m.label_state)).fill(pro.state);
    await p.getByLabel(say(l, m.label_specialty)).selectOption(slugOf(SPECIALTIES, pro.specialty));
    await p.getByLabel(say(l, m.doc_citizenship_front)).setInputFiles(png("citizenship-front.png"));
    await p.getByLabel(say(l, m.doc_citizenship_back)).setInputFiles(png("citizenship-back.png"));
    await p
      .getByLabel(say(l, m.doc_training_certificate))
      .setInputFiles(png("training-certificate.png"));
    await p.getByRole("button", { name: say(l, m.signup_button) }).click();
    // signed in by sign-up, on their dashboard
    await expect(p).toHaveURL("/professional-dashboard", SIGNED_IN);
  }

  /**
   * The signed-in person verifies their phone number as a person would: asks for an SMS code in
   * their account's security tab, reads it off the outbox, types it back. Ends on their home page.
   */
  async verifyPhone(phone: string, role: "customer" | "professional" = "professional") {
    const p = this.page;
    const l = this.locale;
    const [account, back] =
      role === "professional"
        ? ["/professional/account", "/professional-dashboard"]
        : ["/customer/profile", "/"];
    await p.goto(`${account}?tab=security`);
    const phoneRow = p.getByRole("listitem", { name: say(l, m.label_phone_short) });
    const outbox = await OutboxPage.open(p);
    await phoneRow.getByRole("button", { name: say(l, m.cv_send_sms) }).click();
    const code = await outbox.code(
      "SMS",
      toLatinDigits(phone),
      /Verifies this number|नम्बर प्रमाणित गर्छ/,
    );
    await outbox.close();
    await phoneRow.getByLabel(say(l, m.reset_code)).fill(code);
    await phoneRow.getByRole("button", { name: say(l, m.cv_confirm) }).click();
    await expect(phoneRow).toContainText(say(l, m.badge_verified));
    await p.goto(back);
  }

  /**
   * Signs in without a password from the sign-in page open now: "Use a code instead", the mobile
   * number, the code read off the outbox's SMS. A wrong code first, when `wrongFirst`.
   */
  async signInByCode(phone: string, { wrongFirst = false } = {}) {
    const p = this.page;
    const l = this.locale;
    await p.getByRole("link", { name: say(l, m.code_signin_link) }).click();
    await expect(p.getByRole("heading", { name: say(l, m.code_signin_title) })).toBeVisible();
    await p.getByLabel(say(l, m.code_signin_phone)).fill(phone);
    const outbox = await OutboxPage.open(p);
    await p.getByRole("button", { name: say(l, m.action_send_code) }).click();
    const latin = toLatinDigits(phone);
    const written = (digits: string) => (l === "ne-NP" ? toDevanagariDigits(digits) : digits);
    await expect(
      p.getByText(say(l, m.code_signin_sent, { phone: written(latin), minutes: written("15") })),
    ).toBeVisible();
    const code = await outbox.code("SMS", latin, /sign-in code|लग इन कोड/);
    await outbox.close();
    const field = p.getByLabel(say(l, m.reset_code));
    const submit = p.getByRole("button", { name: say(l, m.code_signin_button) });
    if (wrongFirst) {
      await field.fill(code === "000000" ? "111111" : "000000");
      await submit.click();
      await expect(p.getByText(say(l, m.error_invalid_code))).toBeVisible();
    }
    await field.fill(code);
    await submit.click();
  }

  async login(email: string, password: string, role: "Customer" | "Professional") {
    const p = this.page;
    const l = this.locale;
    await p.goto("/login");
    await p.getByLabel(say(l, m.label_email)).fill(email);
    await p.getByLabel(say(l, m.label_password), { exact: true }).fill(password);
    await p
      .getByRole("radio", {
        name: say(l, role === "Customer" ? m.role_customer : m.role_professional),
      })
      .check();
    await p.getByRole("button", { name: say(l, m.login_button) }).click();
    await expect(p).toHaveURL(role === "Customer" ? "/" : "/professional-dashboard", SIGNED_IN);
  }

  /** Signs a professional in; one on their dashboard already (signed in by sign-up) stays there. */
  async professionalSignIn(email: string, password: string) {
    const p = this.page;
    const l = this.locale;
    if (new URL(p.url()).pathname === "/professional-dashboard") return;
    await p.goto("/professional-signin");
    await p.getByLabel(say(l, m.label_email)).fill(email);
    await p.getByLabel(say(l, m.label_password), { exact: true }).fill(password);
    await p.getByRole("button", { name: say(l, m.signin_button) }).click();
    await expect(p).toHaveURL("/professional-dashboard", SIGNED_IN);
  }

  /**
   * Signs an admin in: username and password, then, when the server asks, the code of `code` (by
   * default the next one of the e2e admin's authenticator, e2e/two-factor.ts).
   */
  async adminLogin(
    username: string,
    password: string,
    code: () => Promise<string> = () => nextCode(username),
  ) {
    const p = this.page;
    const l = this.locale;
    await p.goto("/admin-login");
    await p.getByLabel(say(l, m.admin_login_username)).fill(username);
    await p.getByLabel(say(l, m.label_password), { exact: true }).fill(password);
    // The success message shows for half a second only: a busy machine's polling can miss it, so
    // the page itself reports when it appears.
    const shown = p.evaluate(
      (text) =>
        new Promise<true>((resolve) => {
          const seen = () => document.body.innerText.includes(text) && resolve(true);
          new MutationObserver(seen).observe(document.body, {
            subtree: true,
            childList: true,
            characterData: true,
          });
        }),
      say(l, m.admin_login_ok),
    );
    const submit = p.getByRole("button", { name: say(l, m.admin_login_submit) });
    await submit.click();
    // an admin with two-factor on is asked for a code once the password is right
    const codeField = p.getByLabel(say(l, m.admin_login_code));
    const asked = await Promise.race([
      shown.then(() => false),
      codeField.waitFor().then(
        () => true,
        () => false,
      ),
    ]);
    if (asked) {
      await codeField.fill(await code());
      await submit.click();
    }
    expect(await shown).toBe(true);
    await expect(p).toHaveURL("/admin-panel", SIGNED_IN);
  }
}
