import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";
import { kathmanduInput, newCustomer, verifiedElectrician } from "../../people";

for (const locale of LANGUAGES) {
  test(`the customer proposes another free time; the professional accepts one and declines the next, both live (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(240_000);
    const { pro, professional } = await verifiedElectrician(actor, { width: 1280, height: 800 });
    const customer = await actor({ viewport: { width: 360, height: 800 }, locale });
    await customer.auth.signUpAndLogInCustomer(newCustomer());
    const l = locale;
    const note = `Move me ${Math.random().toString(36).slice(2, 8)}`;

    // a booking for tomorrow, accepted
    await customer.search.open("Electrician", "Nepalgunj");
    await customer.search.book(pro.name, {
      services: [],
      firstService: true,
      note,
      when: kathmanduInput(26 * 60),
    });
    await professional.dashboard.open();
    const job = professional.dashboard.booking(note);
    await job.getByRole("button", { name: "Accept" }).click();
    await expect(job).toContainText("Accepted");

    // the customer picks another of the professional's free times
    await customer.account.openBookings();
    const card = customer.account.booking(note);
    const booked = await card.locator("time").first().innerText();
    await card.getByRole("button", { name: say(l, m.reschedule_open) }).click();
    const dialog = customer.page.getByRole("dialog", { name: say(l, m.reschedule_title) });
    const days = dialog.getByRole("group", { name: say(l, m.book_slots_days) });
    await days.getByRole("button").nth(2).click();
    const times = dialog.getByRole("group", { name: say(l, m.book_slots_times) });
    await times.getByRole("button").first().click();
    await customer.page.screenshot({ path: `e2e/screenshots/reschedule-pick-${l}-360.png` });
    await dialog.getByRole("button", { name: say(l, m.reschedule_send) }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole("status").filter({ hasText: pro.name })).toBeVisible();

    // the professional sees it live and accepts: the booking moves on both screens
    await expect(job).toContainText("asks to move this booking");
    await professional.page.screenshot({ path: `e2e/screenshots/reschedule-asked-1280.png` });
    await job.getByRole("button", { name: "Accept new time" }).click();
    const history = card.getByRole("list", { name: say(l, m.reschedule_history) });
    await expect(history.getByRole("listitem")).toHaveCount(1);
    await expect(card.locator("time").first()).not.toHaveText(booked);
    const moved = await card.locator("time").first().innerText();
    await expect(history).toContainText(moved);
    await expect(job.getByRole("list", { name: "Time changes" })).toContainText("Moved from");

    // a second proposal is declined: the booking keeps its new time
    await card.getByRole("button", { name: say(l, m.reschedule_open) }).click();
    await days.getByRole("button").nth(3).click();
    await times.getByRole("button").last().click();
    await dialog.getByRole("button", { name: say(l, m.reschedule_send) }).click();
    await expect(dialog).toBeHidden();
    await job.getByRole("button", { name: "Decline", exact: true }).click();
    await expect(history.getByRole("listitem")).toHaveCount(2);
    await expect(history.getByRole("listitem").last()).toContainText(pro.name);
    await expect(card.locator("time").first()).toHaveText(moved);
    await customer.page.screenshot({ path: `e2e/screenshots/reschedule-history-${l}-360.png` });
  });
}
