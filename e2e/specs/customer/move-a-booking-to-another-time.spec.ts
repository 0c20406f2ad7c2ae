import { expect, test } from "../../fixtures";
import { RESCHEDULE } from "../../../convex/rules/reschedule";
import { LANGUAGES, m, say } from "../../i18n";
import { importedBooking } from "../../imported-booking";
import {
  expectNoSidewaysScroll,
  kathmanduInput,
  newCustomer,
  newProfessional,
  signedInAdmin,
  signUpProfessional,
  verifiedElectrician,
} from "../../people";

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
    const history = card.getByRole("list", { name: say(l, m.heading_time_changes) });
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

/**
 * How far ahead of now moving the imported booking closes: room for the import, a proposal, its
 * withdrawal and a second proposal (about 6 s measured here, 12 s on a loaded machine; 35 s leave room), after which the
 * test waits out the rest for the second one to lapse.
 */
const LAPSE_LEAD_MS = 35_000;

for (const locale of LANGUAGES) {
  test(`the customer withdraws a waiting time, the next lapses unanswered; both sides and the admin see each (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(180_000);
    const admin = await signedInAdmin(actor);
    const pro = newProfessional("Electrician", "Nepalgunj");
    const professional = await actor({ viewport: { width: 1280, height: 800 } });
    await signUpProfessional(professional, pro, admin);
    await professional.auth.professionalSignIn(pro.email, pro.password);
    const customer = await actor({ viewport: { width: 360, height: 800 }, locale });
    const me = newCustomer();
    await customer.auth.signUpAndLogInCustomer(me);
    const l = locale;
    const note = `Lapse me ${Math.random().toString(36).slice(2, 8)}`;
    // the professional's jobs are open before the booking exists: it shows up there live
    await professional.dashboard.open();
    await professional.dashboard.openSection(m.label_jobs);
    const job = professional.dashboard.booking(note);
    // accepted, 2 hours and LEAD ahead: moving it closes while the second proposal waits
    const closesAt = Date.now() + LAPSE_LEAD_MS;
    const bookingId = await importedBooking({
      customer: me,
      professional: pro,
      scheduledFor: closesAt + RESCHEDULE.closesBeforeMs,
      note,
      service: { category: "Electrician", serviceName: "Fan Installation" },
      city: { slug: "nepalgunj", name: "Nepalgunj" },
      address: "Ward 3, Dhamboji",
      pin: { lat: 28.05, lng: 81.62 },
    });
    await customer.page.goto(`/customer/profile?tab=bookings&booking=${bookingId}`);
    const card = customer.account.booking(note);
    const dialog = customer.page.getByRole("dialog", { name: say(l, m.reschedule_title) });
    const propose = async () => {
      await card.getByRole("button", { name: say(l, m.reschedule_open) }).click();
      const days = dialog.getByRole("group", { name: say(l, m.book_slots_days) });
      await days.getByRole("button").nth(2).click();
      const times = dialog.getByRole("group", { name: say(l, m.book_slots_times) });
      await times.getByRole("button").first().click();
      await dialog.getByRole("button", { name: say(l, m.reschedule_send) }).click();
      await expect(dialog).toBeHidden();
      await expect(job).toContainText("asks to move this booking");
    };

    // proposed, then withdrawn: the professional's question goes away live, both keep the step
    await propose();
    const withdraw = card.getByRole("button", { name: say(l, m.reschedule_withdraw) });
    await card.screenshot({ path: `e2e/screenshots/reschedule-waiting-${l}-360.png` });
    await withdraw.click();
    await expect(withdraw).toBeHidden();
    await expect(job).not.toContainText("asks to move this booking");
    const history = card.getByRole("list", { name: say(l, m.heading_time_changes) });
    await expect(history.getByRole("listitem")).toHaveCount(1);
    await expect(job.getByRole("list", { name: "Time changes" })).toContainText(
      `${me.name} withdrew moving it to`,
    );

    // proposed again and left unanswered: it lapses when moving closes, on both screens
    await propose();
    await expect(history.getByRole("listitem")).toHaveCount(2, { timeout: LAPSE_LEAD_MS + 30_000 });
    await expect(history.getByRole("listitem").last()).toContainText(
      say(l, m.reschedule_lapsed, { to: "#" }).split("#")[1],
    );
    await expect(job).not.toContainText("asks to move this booking");
    await expect(job.getByRole("list", { name: "Time changes" })).toContainText(
      "lapsed without an answer",
    );
    await expect(card.getByRole("button", { name: say(l, m.reschedule_open) })).toBeHidden();
    await card.screenshot({ path: `e2e/screenshots/reschedule-lapsed-${l}-360.png` });

    // the admin's booking page lists both, with what became of each
    await admin.page.goto(`/admin/bookings/${bookingId}`);
    const moves = admin.page.getByRole("list", { name: "Time changes" });
    await expect(moves.getByRole("listitem")).toHaveCount(2);
    await expect(moves.getByRole("listitem").first()).toContainText("Withdrawn by the customer");
    await expect(moves.getByRole("listitem").last()).toContainText("Lapsed without an answer");
    await admin.page.screenshot({ path: `e2e/screenshots/reschedule-admin-${l}-1280.png` });
    await admin.page.setViewportSize({ width: 360, height: 800 });
    await expectNoSidewaysScroll(admin);
    await admin.page.screenshot({ path: `e2e/screenshots/reschedule-admin-${l}-360.png` });
  });
}
