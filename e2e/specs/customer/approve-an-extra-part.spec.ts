import { expect, test, type Actor } from "../../fixtures";
import { m, say } from "../../i18n";
import { jobInProgress } from "../../money";

// Demo accounts (convex/model/demoData.ts); the professional's browser speaks Nepali.
const PRO = { email: "electrician.kathmandu@demo.np", password: "demo-password-1" };
const CUSTOMER = { email: "customer2@demo.np", password: "demo-password-1" };
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** The booking's card, opened from a link to it. */
const card = (p: Actor) => p.page.locator('li[aria-current="true"]');
const bill = (p: Actor) => card(p).getByRole("region", { name: say(p.locale, m.bill_title) });
const total = (p: Actor) => bill(p).getByTestId("bill-total");

async function addItem(pro: Actor, item: { label: string; amount: string; reason: string }) {
  const l = pro.locale;
  await bill(pro)
    .getByRole("button", { name: say(l, m.bill_add) })
    .click();
  const form = bill(pro).getByRole("form", { name: say(l, m.bill_add_title) });
  await form.getByLabel(say(l, m.bill_add_label)).fill(item.label);
  await form.getByLabel(say(l, m.bill_add_amount)).fill(item.amount);
  await form.getByLabel(say(l, m.bill_add_reason)).fill(item.reason);
  await form.getByRole("button", { name: say(l, m.bill_add_send) }).click();
  await expect(form).toBeHidden();
}

test("the professional adds parts on site; the customer approves one and declines one, live", async ({
  actor,
}) => {
  const { bookingId } = await jobInProgress(CUSTOMER, PRO, {
    category: "Electrician",
    serviceName: "Fan Installation",
  });
  const customer = await actor({ viewport: PHONE });
  const pro = await actor({ viewport: DESKTOP, locale: "ne-NP" });
  await customer.auth.login(CUSTOMER.email, CUSTOMER.password, "Customer");
  await pro.auth.professionalSignIn(PRO.email, PRO.password);
  await customer.page.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
  await pro.page.goto(`/professional-dashboard?section=jobs&booking=${bookingId}`);
  // Fan Installation in Kathmandu: 500 × 1.3
  await expect(total(customer)).toHaveText("Nrs. 650");
  await expect(total(pro)).toHaveText("रु. ६५०");

  await addItem(pro, { label: "Capacitor", amount: "४५०.५०", reason: "The old one is burnt" });
  const capacitor = bill(customer).getByRole("listitem", { name: "Capacitor, Nrs. 450.50" });
  await expect(capacitor.getByText(say("en", m.bill_waiting_you))).toBeVisible();
  await expect(capacitor.getByText("Why: The old one is burnt")).toBeVisible();
  // not counted until approved; the job cannot be completed while it waits
  await expect(total(customer)).toHaveText("Nrs. 650");
  await pro.page.getByRole("button", { name: say("ne-NP", m.step_complete) }).click();
  await expect(pro.page.getByText(say("ne-NP", m.error_bill_pending))).toBeVisible();

  await capacitor.getByRole("button", { name: say("en", m.bill_approve) }).click();
  await expect(total(customer)).toHaveText("Nrs. 1,100.50");
  await expect(total(pro)).toHaveText("रु. १,१००.५०");

  await addItem(pro, { label: "New switch board", amount: "1200", reason: "Looks old" });
  const board = bill(customer).getByRole("listitem", { name: "New switch board, Nrs. 1,200" });
  await board.getByRole("button", { name: say("en", m.action_decline) }).click();
  await expect(
    bill(pro)
      .getByRole("listitem", {
        name: say("ne-NP", m.bill_decide_label, { item: "New switch board", amount: "रु. १,२००" }),
      })
      .getByText(say("ne-NP", m.bill_declined)),
  ).toBeVisible();
  await expect(total(pro)).toHaveText("रु. १,१००.५०");

  // the customer sees the final bill and how to pay before the job is marked complete
  await expect(bill(customer).getByText(say("en", m.bill_final_note))).toBeVisible();
  await expect(
    bill(customer).getByText(say("en", m.pay_cash_note, { amount: "Nrs. 1,100.50" })),
  ).toBeVisible();
  await customer.page.screenshot({ path: "test-results/bill-customer-360.png", fullPage: false });
  await pro.page.screenshot({ path: "test-results/bill-pro-1280.png", fullPage: false });

  await pro.page.getByRole("button", { name: say("ne-NP", m.step_complete) }).click();
  await expect(card(customer).getByText(say("en", m.status_completed))).toBeVisible();
  await expect(total(customer)).toHaveText("Nrs. 1,100.50");
  // nothing changes the bill once the job is done
  await expect(bill(pro).getByRole("button", { name: say("ne-NP", m.bill_add) })).toBeHidden();
});
