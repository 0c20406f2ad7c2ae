import { readFile } from "node:fs/promises";
import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";
import { LANGUAGES, m, money, say } from "../../i18n";
import { cashPaidJob, paidKathmanduJob } from "../../money";
import { expectNoSidewaysScroll, KATHMANDU_ELECTRICIAN } from "../../people";

const CUSTOMER = { email: "customer2@demo.np", password: "demo-password-1" };
const PRO_NAME = "Gopal Shrestha"; // electrician.kathmandu@demo.np
// a demo professional no other money spec pays, free now: cash jobs only, so they owe the platform
const CASH_PRO = { email: "cctv.kathmandu@demo.np", password: "demo-password-1" };
const CASH_PRO_NAME = "Nabin Rai";
const CASH_SERVICE = { category: "CCTV Camera Fitting", serviceName: "CCTV Repair & Maintenance" };
const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

for (const locale of LANGUAGES) {
  test(`an admin records a payout, then cash commission received, each live on the professional's Earnings page (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(210_000);
    await paidKathmanduJob(CUSTOMER);

    // the professional watches their Earnings page in one browser…
    const pro = await actor({ viewport: locale === "en" ? PHONE : DESKTOP, locale });
    await pro.auth.professionalSignIn(KATHMANDU_ELECTRICIAN.email, KATHMANDU_ELECTRICIAN.password);
    const p = pro.page;
    await p.goto("/professional/earnings");
    const payouts = p.getByRole("region", { name: say(locale, m.payouts_title) });
    await expect(p.getByLabel(say(locale, m.earnings_due_to_you))).toBeVisible();

    // …while the admin records a payout of Nrs. 100 by eSewa in another
    const admin = await actor({ viewport: locale === "en" ? DESKTOP : PHONE, locale });
    const account = locale === "en" ? E2E.admin : E2E.adminNe;
    await admin.auth.adminLogin(account.username, account.password);
    const a = admin.page;
    await a.goto("/admin/payouts");
    await expect(a.getByRole("heading", { level: 1 })).toHaveText(say(locale, m.payouts_title));
    const row = a.getByRole("listitem", { name: PRO_NAME });
    await row.getByRole("button", { name: say(locale, m.payouts_record) }).click();
    const form = a.getByRole("form", {
      name: say(locale, m.payouts_record_for, { name: PRO_NAME }),
    });
    await form.getByLabel(say(locale, m.label_paid_by)).selectOption("esewa");
    // more than is due is refused before it is sent
    await form.getByLabel(say(locale, m.payouts_amount)).fill("99999999");
    await form.getByRole("button", { name: say(locale, m.payouts_save), exact: true }).click();
    await expect(form.getByLabel(say(locale, m.payouts_amount))).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await form.getByLabel(say(locale, m.payouts_amount)).fill("100");
    const reference = `ESEWA-${unique()}`;
    await form.getByLabel(say(locale, m.payouts_reference)).fill(reference);
    await form.screenshot({ path: `e2e/screenshots/payout-form-${locale}.png` });
    await form.getByRole("button", { name: say(locale, m.payouts_save), exact: true }).click();
    await expect(form).toBeHidden();

    const line = say(locale, m.earnings_payout_reference, { reference });
    await expect(payouts.getByText(line)).toBeVisible();
    await expect(payouts.getByRole("listitem").first()).toContainText(
      say(locale, m.earnings_payout_line, {
        amount: money(locale, 10_000),
        method: say(locale, m.method_esewa),
      }),
    );
    await expect(
      a
        .getByRole("region", { name: say(locale, m.payouts_history_title) })
        .getByText(reference, { exact: false }),
    ).toBeVisible();
    // the ledger export holds the payout's two entries, its reference a plain cell
    const [download] = await Promise.all([
      a.waitForEvent("download"),
      a.getByRole("button", { name: say(locale, m.payouts_export_download) }).click(),
    ]);
    const csv = await readFile((await download.path())!, "utf8");
    expect(csv.split("\r\n")[0]).toBe(
      "date_utc,transaction,kind,account,amount_paisa,method,reference,booking,professional",
    );
    const payoutRows = csv.split("\r\n").filter((r) => r.includes(reference));
    expect(payoutRows.map((r) => r.split(",").slice(2, 6))).toEqual([
      ["payout", "professional_earning", "10000", "esewa"],
      ["payout", "platform_funds", "-10000", "esewa"],
    ]);
    await expectNoSidewaysScroll(pro);
    await expectNoSidewaysScroll(admin);
    await p.screenshot({
      path: `e2e/screenshots/earnings-after-payout-${locale}.png`,
      fullPage: true,
    });

    // the CCTV fitter kept the cash of a job: they owe its commission, and hand it over to the admin
    await cashPaidJob(CUSTOMER, CASH_PRO, CASH_SERVICE);
    const cashPro = await actor({ viewport: locale === "en" ? PHONE : DESKTOP, locale });
    await cashPro.auth.professionalSignIn(CASH_PRO.email, CASH_PRO.password);
    const pl = cashPro.page;
    await pl.goto("/professional/earnings");
    const owedFigure = pl.getByLabel(say(locale, m.earnings_owed));
    await expect(owedFigure).not.toHaveText(money(locale, 0));
    const owedText = (await owedFigure.textContent()) ?? "";
    const settledRegion = pl.getByRole("region", {
      name: say(locale, m.earnings_settlements_title),
    });
    await expect(settledRegion).toBeVisible();

    const cashProRow = a.getByRole("listitem", { name: CASH_PRO_NAME });
    await expect(cashProRow).toContainText(say(locale, m.payouts_owes, { amount: owedText }));
    await expect(
      cashProRow.getByRole("button", { name: say(locale, m.payouts_record) }),
    ).toBeHidden();
    await cashProRow.getByRole("button", { name: say(locale, m.payouts_settle) }).click();
    const settle = a.getByRole("form", {
      name: say(locale, m.payouts_settle_for, { name: CASH_PRO_NAME }),
    });
    const settleAmount = settle.getByLabel(say(locale, m.payouts_amount));
    const owedRupees = await settleAmount.inputValue();
    // more than is owed is refused before it is sent
    await settleAmount.fill(String(Number(owedRupees) + 1));
    await settle.getByRole("button", { name: say(locale, m.payouts_save), exact: true }).click();
    await expect(settleAmount).toHaveAttribute("aria-invalid", "true");
    await settleAmount.fill(owedRupees);
    const settleReference = `CASH-${unique()}`;
    await settle.getByLabel(say(locale, m.payouts_reference)).fill(settleReference);
    await settle.screenshot({ path: `e2e/screenshots/settlement-form-${locale}.png` });
    await settle.getByRole("button", { name: say(locale, m.payouts_save), exact: true }).click();
    await expect(settle).toBeHidden();

    // the fitter's screen, unreloaded: nothing owed now, the settlement in their history
    await expect(owedFigure).toHaveText(money(locale, 0));
    await expect(
      settledRegion.getByText(
        say(locale, m.earnings_payout_reference, { reference: settleReference }),
      ),
    ).toBeVisible();
    await expect(settledRegion.getByRole("listitem").first()).toContainText(
      say(locale, m.earnings_payout_line, {
        amount: owedText,
        method: say(locale, m.method_cash),
      }),
    );
    await expect(cashProRow).toContainText(say(locale, m.payouts_settled));
    await expect(
      a
        .getByRole("region", { name: say(locale, m.payouts_settlements_title) })
        .getByText(settleReference, { exact: false }),
    ).toBeVisible();
    await expectNoSidewaysScroll(cashPro);
    await pl.screenshot({
      path: `e2e/screenshots/earnings-after-settlement-${locale}.png`,
      fullPage: true,
    });
    await a.screenshot({ path: `e2e/screenshots/admin-payouts-${locale}.png`, fullPage: true });
  });
}
