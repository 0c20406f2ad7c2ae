import type { Page } from "@playwright/test";
import { CITIES } from "../../../convex/constants";
import { CATEGORY_NAMES_NE } from "../../../convex/localCategoryNames";
import { expect, test, type Actor } from "../../fixtures";
import { E2E, unique, uniquePhone } from "../../env";
import { LANGUAGES, m, say, type Locale } from "../../i18n";
import type { NewProfessional } from "../../pages/auth-pages";
import {
  adminClient,
  customerAccount,
  professionalAccount,
  verifiedProfessionalAccount,
  verifyPhoneOf,
} from "../../people";
import { toLatinDigits } from "../../../src/lib/digits";

/*
 * The three journeys (a professional signs up, the admin verifies, a customer books), once in
 * English and once in Nepali: every browser starts in the language under test (its navigator.languages), every label the page objects use and every text
 * checked here is the app's own catalogue message in that language.
 */

const HOUR = 3_600_000;
/** A datetime-local value in Nepal time (UTC+5:45), as the booking form takes it. */
const nepalTime = (ms: number) => new Date(ms + (5 * 60 + 45) * 60_000).toISOString().slice(0, 16);

/** Nepali readers type Devanagari digits; the app stores Latin ones. */
const DEVANAGARI = "०१२३४५६७८९";
const nepaliDigits = (text: string) => text.replace(/\d/g, (d) => DEVANAGARI[Number(d)]);
/** The tries left after one wrong start code (rules/startCode.ts), as the reader's digits write it. */
const four = (locale: Locale) => (locale === "ne-NP" ? "४" : "4");
/** Another start code than `shown`, in the same script: each digit moved on by one. */
const wrongCode = (shown: string) =>
  shown.replace(/[0-9०-९]/g, (d) => {
    const ne = DEVANAGARI.includes(d);
    const next = ((ne ? DEVANAGARI.indexOf(d) : Number(d)) + 1) % 10;
    return ne ? DEVANAGARI[next]! : String(next);
  });

function professional(locale: Locale, id: string): NewProfessional {
  const ne = locale === "ne-NP";
  return {
    name: ne ? `विष्णु गुरुङ ${id}` : `Bishnu Gurung ${id}`,
    email: `bishnu.${id}@example.np`,
    phone: ne ? nepaliDigits(uniquePhone()) : uniquePhone(),
    password: "bishnu-password-1",
    address: ne ? "लेकसाइड-६, पोखरा" : "Lakeside-6, Pokhara",
    zipCode: ne ? nepaliDigits("33700") : "33700",
    city: "Pokhara",
    state: ne ? "गण्डकी" : "Gandaki",
    specialty: "Carpenter",
  };
}

/** `pro` as the sign-up form sends it, digits typed in either script held as Latin ones. */
const latin = (pro: NewProfessional): NewProfessional => ({
  ...pro,
  phone: toLatinDigits(pro.phone),
  zipCode: toLatinDigits(pro.zipCode),
});

/** How the search page names carpentry in Pokhara. */
function carpentryInPokhara(locale: Locale) {
  const pokhara = CITIES.find((c) => c.slug === "pokhara")!;
  return locale === "ne-NP"
    ? say(locale, m.sp_heading, { service: CATEGORY_NAMES_NE.carpentry.name, city: pokhara.nameNe })
    : say(locale, m.sp_heading, { service: "Carpenter", city: pokhara.name });
}

const adminOf = (locale: Locale) => (locale === "ne-NP" ? E2E.adminNe : E2E.admin);

async function expectLanguage(page: Page, locale: Locale) {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
}

/** The admin opens the professional's documents (each image loads) and verifies them. */
async function verify(admin: Actor, name: string) {
  const l = admin.locale;
  const dialog = await admin.admin.openTechnician(name);
  for (const document of [
    m.doc_citizenship_front,
    m.doc_citizenship_back,
    m.doc_training_certificate,
  ]) {
    const image = dialog.getByRole("img", {
      name: say(l, m.admin_dialog_document_alt, { document: say(l, document), name }),
    });
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
  }
  await dialog.getByRole("button", { name: say(l, m.admin_dialog_verify) }).click();
  await expect(admin.page.getByText(say(l, m.admin_dialog_verified_toast, { name }))).toBeVisible();
  await expect(dialog).toBeHidden();
}

for (const locale of LANGUAGES) {
  test.describe(`in ${locale}`, () => {
    const person = (actor: (o?: { locale: string }) => Promise<Actor>) => actor({ locale });

    test("a professional signs up with documents, typing digits in the reader's script", async ({
      actor,
    }) => {
      const pro = professional(locale, unique());
      const newcomer = await person(actor);
      await newcomer.page.goto("/");
      await expectLanguage(newcomer.page, locale);
      await newcomer.auth.signUpProfessional(pro);
      await expect(newcomer.page.getByText(say(locale, m.signup_success))).toBeVisible();

      await newcomer.auth.professionalSignIn(pro.email, pro.password);
      await expectLanguage(newcomer.page, locale);
      await expect(newcomer.dashboard.bookings()).toContainText(say(locale, m.pro_empty));
      await newcomer.dashboard.openSection(m.dash_tab_hours);
      await expect(newcomer.page.getByText(say(locale, m.pc_help_unverified))).toBeVisible();
    });

    test("the admin verifies a new professional, who sees it live", async ({ actor }) => {
      test.setTimeout(120_000);
      const pro = professional(locale, unique());
      const admin = await person(actor);
      const { username, password } = adminOf(locale);
      await admin.auth.adminLogin(username, password);
      await expectLanguage(admin.page, locale);
      await expect(
        admin.page.getByRole("heading", { name: say(locale, m.admin_nav_technicians) }),
      ).toBeVisible();
      await admin.page
        .getByLabel(say(locale, m.admin_filter_verification), { exact: true })
        .selectOption("unverified");

      // signed up meanwhile: the sign-up form is the first test's
      const asNewcomer = await professionalAccount(latin(pro));
      const card = admin.admin.technicianCard(pro.name);
      await expect(card).toContainText(say(locale, m.badge_unverified));
      await expect(card).toContainText(
        locale === "ne-NP" ? CATEGORY_NAMES_NE.carpentry.name : "Carpenter",
      );
      await expect(card).toContainText(locale === "ne-NP" ? "पोखरा" : "Pokhara");
      await expect(card).toContainText(locale === "ne-NP" ? "३३७००" : "33700");

      await verifyPhoneOf(asNewcomer, latin(pro).phone);
      const newcomer = await person(actor);
      await newcomer.auth.professionalSignIn(pro.email, pro.password);
      await newcomer.dashboard.openSection(m.dash_tab_hours);
      await verify(admin, pro.name);
      await expect(card).toHaveCount(0);
      await expect(newcomer.page.getByText(say(locale, m.pc_help_verified))).toBeVisible();
    });

    test("a customer searches, books, the professional accepts live, completes, and the customer reviews", async ({
      actor,
    }) => {
      test.setTimeout(180_000);
      const id = unique();
      const pro = professional(locale, id);

      // A verified professional of its own, so no other spec's bookings clash with this one; signing
      // up and verifying are the first two tests'.
      await verifiedProfessionalAccount(latin(pro), await adminClient());
      const worker = await person(actor);
      await worker.auth.professionalSignIn(pro.email, pro.password);
      await expect(worker.dashboard.bookings()).toContainText(say(locale, m.pro_empty));

      const sita = {
        name: locale === "ne-NP" ? `सीता शर्मा ${id}` : `Sita Sharma ${id}`,
        email: `sita.${id}@example.np`,
        phone: uniquePhone(),
        password: "sita-password-1",
        address: locale === "ne-NP" ? "पृथ्वीचोक, पोखरा" : "Prithvi Chowk, Pokhara",
        zipCode: "33700",
      };
      await customerAccount(sita);
      const customer = await person(actor);
      await customer.auth.login(sita.email, sita.password, "Customer");
      await expectLanguage(customer.page, locale);
      await customer.search.open("Carpenter", "Pokhara");
      await expect(customer.page.getByRole("heading", { level: 1 })).toHaveText(
        carpentryInPokhara(locale),
      );
      const note = `${locale === "ne-NP" ? "ढोका मर्मत" : "Door repair"} ${id}`;
      // Within the hour, so the job's own steps are open at once.
      await customer.search.book(pro.name, {
        services: [],
        firstService: true,
        note,
        when: nepalTime(Date.now() + HOUR / 2),
      });

      await customer.account.openBookings();
      const booking = customer.account.booking(note);
      await expect(booking).toContainText(say(locale, m.status_requested));

      // The request reaches the professional's open dashboard; the accept reaches the customer's list.
      const request = worker.dashboard.booking(note);
      await expect(request).toContainText(say(locale, m.status_requested));
      await request.getByRole("button", { name: say(locale, m.step_accept), exact: true }).click();
      await expect(request).toContainText(say(locale, m.status_accepted));
      await expect(booking).toContainText(say(locale, m.status_accepted));

      const step = async (name: typeof m.step_arrive, status: typeof m.status_arrived) => {
        await request.getByRole("button", { name: say(locale, name), exact: true }).click();
        await expect(request).toContainText(say(locale, status));
        await expect(booking).toContainText(say(locale, status));
      };
      await step(m.step_start_trip, m.status_en_route);
      await step(m.step_arrive, m.status_arrived);
      // at the door: the customer reads out the start code on their screen, the professional types it
      const code = booking.getByTestId("start-code");
      await expect(code).toHaveText(locale === "ne-NP" ? /^[०-९]{4}$/ : /^\d{4}$/);
      const shown = await code.innerText();
      const codeField = request.getByLabel(say(locale, m.start_code_label));
      const submit = request.getByRole("button", { name: say(locale, m.start_code_submit) });
      // a wrong code first: the professional is told the tries left, the customer sees it live
      await codeField.fill(wrongCode(shown));
      await submit.click();
      await expect(request).toContainText(say(locale, m.start_code_wrong, { count: four(locale) }));
      await expect(booking).toContainText(
        say(locale, m.start_code_tries_left, { count: four(locale) }),
      );
      await customer.page.setViewportSize({ width: 360, height: 740 });
      await booking.scrollIntoViewIfNeeded();
      await customer.page.screenshot({
        path: `e2e/screenshots/start-code-customer-${locale}-360.png`,
      });
      await request.scrollIntoViewIfNeeded();
      await worker.page.screenshot({ path: `e2e/screenshots/start-code-pro-${locale}-1280.png` });
      await codeField.fill(shown);
      await submit.click();
      await expect(request).toContainText(say(locale, m.status_in_progress));
      await expect(booking).toContainText(say(locale, m.status_in_progress));
      await step(m.step_complete, m.status_completed);

      // the job counts as done once the customer says so; the professional sees it wait, then not
      await expect(request).toContainText(say(locale, m.awaiting_confirmation));
      await booking.getByRole("button", { name: say(locale, m.confirm_done) }).click();
      await expect(request).not.toContainText(say(locale, m.awaiting_confirmation));

      const review = booking.getByRole("group", {
        name: say(locale, m.review_rate, { name: pro.name }),
      });
      await review.getByRole("radio").nth(4).check({ force: true });
      await booking
        .getByLabel(say(locale, m.review_comment))
        .fill(locale === "ne-NP" ? "राम्रो काम गर्नुभयो।" : "Neat work, on time.");
      await booking.getByRole("button", { name: say(locale, m.review_submit) }).click();
      // tapped through in seconds: the review waits for an admin's check (rules/bookingLifecycle.ts)
      await expect(customer.page.getByText(say(locale, m.review_held))).toBeVisible();
      await expect(booking).toContainText(say(locale, m.status_reviewed));
    });
  });
}
