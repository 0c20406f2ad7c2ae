import { unique } from "../../env";
import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";
import { typeStreetIfNoneProposed } from "../../pages/search-page";
import { kathmanduDay, verifiedElectrician } from "../../people";

const NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * Booking flow: a professional sets working days and hours on the dashboard (checked by
 * the same rule as the server), and a customer choosing a time outside them reads why before
 * Confirm; the server refuses it too (OUTSIDE_WORKING_HOURS), inside the dialog.
 */
for (const width of [360, 1280]) {
  test(`working hours: set on the dashboard, explained before Confirm, refused by the server (${width} px)`, async ({
    actor,
  }) => {
    test.setTimeout(120_000);
    const { pro, professional } = await verifiedElectrician(actor, { width, height: 800 });

    await professional.dashboard.openSection(m.dash_tab_hours);
    const form = professional.page.getByRole("form", { name: "Working hours" });
    await expect(professional.page.getByTestId("working-hours-now")).toHaveText(
      say("en", m.hours_any_time),
    );
    // the shared rule, before anything is sent
    for (const name of NAMES)
      await form.getByRole("checkbox", { name, exact: true }).setChecked(false);
    await expect(form.getByText("Choose at least one working day.")).toBeVisible();
    await form.getByLabel("From").fill("17:00");
    await form.getByLabel("To").fill("09:00");
    await expect(form.getByText("The end time must be after the start time.")).toBeVisible();

    // every day but tomorrow, 09:00–17:00
    const tomorrow = kathmanduDay(1);
    const later = kathmanduDay(2);
    const days = [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== tomorrow.weekday);
    for (const d of days) await form.getByRole("checkbox", { name: NAMES[d], exact: true }).check();
    await form.getByLabel("From").fill("09:00");
    await form.getByLabel("To").fill("17:00");
    await expect(form.getByText("Choose at least one working day.")).toHaveCount(0);
    await form.getByRole("button", { name: "Save working hours" }).click();
    const now = professional.page.getByTestId("working-hours-now");
    await expect(now).toHaveText(
      `Customers can book you ${days.map((d) => NAMES[d]).join(", ")}, 09:00–17:00 (Nepal time).`,
    );
    await professional.page.screenshot({
      path: `e2e/screenshots/working-hours-${width}.png`,
      fullPage: true,
    });

    const customer = await actor({ viewport: { width, height: 800 } });
    await customer.auth.login("customer3@demo.np", "demo-password-1", "Customer");
    await customer.search.open("Electrician", "Nepalgunj");
    const c = customer.page;
    await c.getByRole("button", { name: `Book ${pro.name}` }).click();
    const dialog = c.getByRole("dialog", { name: `Book ${pro.name}` });
    await dialog.getByRole("checkbox").first().check();
    await typeStreetIfNoneProposed(dialog);
    const when = dialog.getByLabel("Date and time (Nepal time)");
    const outside = "This time is outside their working days and hours.";
    await expect(dialog).toContainText(
      `${pro.name} works ${days.map((d) => NAMES[d]).join(", ")}, 09:00–17:00.`,
    );

    // tomorrow is a day off; the day after at 20:00 is after hours; at 10:00 it is fine
    await when.fill(`${tomorrow.date}T10:00`);
    await expect(dialog).toContainText(outside);
    await when.fill(`${later.date}T20:00`);
    await expect(dialog).toContainText(outside);
    // on a phone too, the warning is on screen, not under the sticky Confirm footer
    const warning = dialog.getByText(outside);
    await expect(warning).toBeInViewport();
    await expect
      .poll(() =>
        warning.evaluate((el) => {
          const box = el.getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.bottom - 2);
          return el === top || el.contains(top);
        }),
      )
      .toBe(true);
    await c.screenshot({ path: `e2e/screenshots/outside-hours-${width}.png` });
    // the server says no as well, inside the dialog
    await dialog.getByRole("button", { name: "Confirm booking" }).click();
    await expect(dialog.getByRole("alert")).toContainText(
      `${pro.name} works ${days.map((d) => NAMES[d]).join(", ")} from 09:00 to 17:00 (Nepal time).`,
    );
    await when.fill(`${later.date}T10:00`);
    await expect(dialog).not.toContainText(outside);
    const note = `Within hours ${unique()}`;
    await dialog.getByLabel("Note for the professional (optional)").fill(note);
    await dialog.getByRole("button", { name: "Confirm booking" }).click();
    await expect(dialog).toBeHidden();
    await professional.dashboard.openSection(m.dash_tab_requests);
    await expect(professional.dashboard.booking(note)).toBeVisible();
  });
}
