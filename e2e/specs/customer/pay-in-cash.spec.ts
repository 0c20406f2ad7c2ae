import { E2E } from "../../env";
import { expect, test, type Actor } from "../../fixtures";
import { m, say, type Locale } from "../../i18n";
import { expectNoSidewaysScroll, kathmanduJobUnderWay, newCustomer } from "../../people";

// The demo electrician of Kathmandu (convex/model/demoData.ts) takes every job here.
const PRO = { email: "electrician.kathmandu@demo.np", password: "demo-password-1" };
const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 800 };

/** The booking's card, opened from a link to it, and its bill. */
const card = (p: Actor) => p.page.locator('li[aria-current="true"]');
const bill = (p: Actor) => card(p).getByRole("region", { name: say(p.locale, m.bill_title) });

/** A customer in `customerLocale` with a job under way, both sides' screens on its card. */
async function cashJob(
  actor: (o?: object) => Promise<Actor>,
  customerLocale: Locale,
  proLocale: Locale,
) {
  const customer = await actor({ viewport: PHONE, locale: customerLocale });
  const me = newCustomer("Ward 10, New Baneshwor");
  await customer.auth.signUpAndLogInCustomer(me);
  const bookingId = await kathmanduJobUnderWay(me);
  const pro = await actor({ viewport: DESKTOP, locale: proLocale });
  await pro.auth.professionalSignIn(PRO.email, PRO.password);
  await customer.page.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
  await pro.page.goto(`/professional-dashboard?section=jobs&booking=${bookingId}`);
  await expect(bill(customer).getByText(say(customerLocale, m.bill_unpaid))).toBeVisible();
  // the bill's total as the professional types it, in Latin digits
  const total = (await bill(customer).getByTestId("bill-total").textContent()) ?? "";
  const rupees = total
    .replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - 0x0966))
    .replace(/[^\d.]/g, "")
    .replace(/^\./, "");
  return { customer, pro, bookingId, rupees };
}

/** The professional records the cash: a wrong amount is refused on the spot, the bill's total taken. */
async function recordCash(pro: Actor, rupees: string) {
  const l = pro.locale;
  await bill(pro)
    .getByRole("button", { name: say(l, m.cash_received) })
    .click();
  const form = bill(pro).getByRole("form", { name: say(l, m.cash_received_title) });
  const amount = form.getByLabel(say(l, m.cash_amount));
  await amount.fill(String(Number(rupees) + 100));
  await form.getByRole("button", { name: say(l, m.cash_record) }).click();
  const total = (await bill(pro).getByTestId("bill-total").textContent()) ?? "";
  await expect(form.getByText(say(l, m.cash_amount_not_total, { total }))).toBeVisible();
  await amount.fill(rupees);
  await form.getByRole("button", { name: say(l, m.cash_record) }).click();
  await expect(form).toBeHidden();
}

test("cash confirmed: the professional records it, the customer confirms it, both see it paid, live", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const { customer, pro, bookingId, rupees } = await cashJob(actor, "en", "ne-NP");
  await recordCash(pro, rupees);

  // the customer's screen asks for an answer without a reload; the professional waits for it
  const answer = bill(customer).getByRole("group", { name: say("en", m.cash_answer_title) });
  await expect(answer).toBeVisible();
  await expect(bill(customer).getByText(say("en", m.bill_cash_awaiting))).toBeVisible();
  await expect(bill(pro).getByText(say("ne-NP", m.bill_cash_awaiting))).toBeVisible();
  await expectNoSidewaysScroll(customer);
  await answer.scrollIntoViewIfNeeded();
  await customer.page.screenshot({ path: "e2e/screenshots/cash-to-confirm-en-360.png" });
  await pro.page.screenshot({ path: "e2e/screenshots/cash-waiting-ne-1280.png" });

  await answer.getByRole("button", { name: say("en", m.cash_confirm) }).click();
  await expect(answer).toBeHidden();
  await expect(bill(customer).getByText(say("en", m.bill_paid), { exact: true })).toBeVisible();
  await expect(bill(pro).getByText(say("ne-NP", m.bill_paid), { exact: true })).toBeVisible();
  await expect(
    bill(pro).getByText(
      say("ne-NP", m.bill_paid_by, {
        amount: (await bill(pro).getByTestId("bill-total").textContent()) ?? "",
        method: say("ne-NP", m.method_cash),
      }),
    ),
  ).toBeVisible();
  await expect(
    bill(customer).getByRole("button", { name: say("en", m.pay_with_khalti) }),
  ).toHaveCount(0);
  await pro.page.screenshot({ path: "e2e/screenshots/cash-confirmed-ne-1280.png" });

  // the receipt, from the bill on both sides; printed, without the site's header
  await bill(customer)
    .getByRole("link", { name: say("en", m.receipt_title) })
    .click();
  const receipt = customer.page.getByRole("article", { name: say("en", m.receipt_title) });
  await expect(receipt.getByTestId("receipt-number")).toHaveText(/^GS-\d{6}$/);
  await expect(receipt).toContainText(say("en", m.receipt_paid_to));
  await expect(receipt).toContainText(" BS");
  await expectNoSidewaysScroll(customer);
  await customer.page.screenshot({
    path: "e2e/screenshots/receipt-cash-en-360.png",
    fullPage: true,
  });
  await customer.page.emulateMedia({ media: "print" });
  await expect(customer.page.getByRole("banner")).toBeHidden();
  await expect(
    customer.page.getByRole("button", { name: say("en", m.receipt_print) }),
  ).toBeHidden();
  await customer.page.screenshot({
    path: "e2e/screenshots/receipt-cash-print-en-360.png",
    fullPage: true,
  });

  await bill(pro)
    .getByRole("link", { name: say("ne-NP", m.receipt_title) })
    .click();
  const proReceipt = pro.page.getByRole("article", { name: say("ne-NP", m.receipt_title) });
  await expect(proReceipt.getByTestId("receipt-number")).toHaveText(
    (await receipt.getByTestId("receipt-number").textContent()) ?? "",
  );
  await expect(proReceipt).toContainText(say("ne-NP", m.receipt_date_bs));
  await pro.page.screenshot({ path: "e2e/screenshots/receipt-cash-ne-1280.png", fullPage: true });

  // an admin reaches it from the booking's page
  const number = (await receipt.getByTestId("receipt-number").textContent()) ?? "";
  const admin = await actor({ viewport: DESKTOP });
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await admin.page.goto(`/admin/bookings/${bookingId}`);
  await admin.page.getByRole("link", { name: number }).click();
  await expect(
    admin.page
      .getByRole("article", { name: say("en", m.receipt_title) })
      .getByTestId("receipt-number"),
  ).toHaveText(number);

  // someone else's receipt is not found
  const stranger = await actor({ viewport: PHONE });
  await stranger.auth.signUpAndLogInCustomer(newCustomer());
  await stranger.page.goto(new URL(customer.page.url()).pathname);
  await expect(stranger.page.getByText(say("en", m.receipt_not_found))).toBeVisible();
  await expect(stranger.page.getByTestId("receipt-number")).toHaveCount(0);
});

test("cash disputed: the customer says what is wrong, the professional sees it live, an admin settles it", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const { customer, pro, rupees } = await cashJob(actor, "ne-NP", "en");
  await recordCash(pro, rupees);

  const l = customer.locale;
  const answer = bill(customer).getByRole("group", { name: say(l, m.cash_answer_title) });
  await answer.getByRole("button", { name: say(l, m.cash_dispute) }).click();
  const what = answer.getByLabel(say(l, m.cash_dispute_what));
  await what.fill("कम");
  await answer.getByRole("button", { name: say(l, m.cash_dispute_send) }).click();
  await expect(
    answer.getByText(say(l, m.cash_dispute_error, { min: 10, max: 1000 })),
  ).toBeVisible();
  const text = `मैले ५०० मात्र तिरें, पूरा बिल होइन ${Date.now()}`;
  await what.fill(text);
  await answer.getByRole("button", { name: say(l, m.cash_dispute_send) }).click();

  await expect(bill(customer).getByRole("status")).toHaveText(say(l, m.cash_disputed_customer));
  await expect(bill(customer).getByText(say(l, m.bill_cash_disputed))).toBeVisible();
  await expect(bill(pro).getByText(say("en", m.bill_cash_disputed))).toBeVisible();
  await expect(bill(pro).getByRole("status")).toContainText("The customer disputes the");
  await expectNoSidewaysScroll(customer);
  await customer.page.screenshot({ path: "e2e/screenshots/cash-disputed-ne-360.png" });
  await pro.page.screenshot({ path: "e2e/screenshots/cash-disputed-en-1280.png" });

  // the dispute waits in the admin's reports queue
  const admin = await actor({ viewport: DESKTOP });
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await admin.page.goto("/admin/reports");
  const item = admin.page.getByRole("main").getByRole("listitem").filter({ hasText: text });
  await expect(item).toBeVisible();
  await expect(item).toContainText(say("en", m.report_category_cash_dispute));

  // and among the disputed cash on the payouts page, which opens its report to settle it
  await admin.page.goto("/admin/payouts");
  const disputes = admin.page.getByRole("region", { name: say("en", m.disputes_title) });
  const row = disputes.getByRole("listitem").filter({ hasText: text });
  await row.getByRole("link", { name: say("en", m.disputes_settle) }).click();
  const settle = admin.page.getByRole("button", { name: say("en", m.dispute_settle) });
  await settle.click();
  await expect(admin.page.getByText(say("en", m.dispute_outcome_missing))).toBeVisible();
  await admin.page.getByLabel(say("en", m.dispute_outcome_waived)).check();
  await admin.page
    .getByLabel(say("en", m.label_reason))
    .fill("Neither side could show what was paid.");
  await admin.page.screenshot({ path: "e2e/screenshots/cash-dispute-settle-en-1280.png" });
  await settle.click();
  await expect(admin.page.getByText("Neither side could show what was paid.")).toBeVisible();

  // both sides see it waived without a reload
  await expect(bill(customer).getByText(say(l, m.bill_cash_waived), { exact: true })).toBeVisible();
  const amount = (await bill(customer).getByTestId("bill-total").textContent()) ?? "";
  await expect(bill(customer).getByRole("status")).toHaveText(say(l, m.cash_waived, { amount }));
  await expect(bill(pro).getByText(say("en", m.bill_cash_waived), { exact: true })).toBeVisible();
  await customer.page.screenshot({ path: "e2e/screenshots/cash-waived-ne-360.png" });
  await admin.page.setViewportSize(PHONE);
  await admin.page.goto("/admin/payouts");
  await expect(disputes.getByRole("listitem").filter({ hasText: text })).toHaveCount(0);
  await admin.page.screenshot({ path: "e2e/screenshots/payouts-no-disputes-en-360.png" });
});
