import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";

/** Admin desk: the bookings view filters by status, city and customer, and opens the event log. */
for (const width of [360, 1280]) {
  test(`admin filters bookings and reads one booking's event log (${width} px)`, async ({
    actor,
  }) => {
    const id = unique();
    const customer = await actor({ viewport: { width, height: 800 } });
    await customer.auth.login("customer2@demo.np", "demo-password-1", "Customer");
    await customer.search.open("CCTV-Camera-Fitting", "Kathmandu");
    const note = `Camera at the gate ${id}`;
    await customer.search.book("Nabin Rai", { services: [], note, firstService: true });
    await customer.account.openBookings();
    const card = customer.account.booking(note);
    await card.getByRole("button", { name: "Cancel booking" }).click();
    const reason = `Fixed it myself ${id}`;
    await customer.page.getByRole("dialog").getByRole("textbox").fill(reason);
    await customer.page.getByRole("dialog").getByRole("button", { name: "Cancel booking" }).click();
    await expect(card).toContainText("Cancelled");

    const admin = await actor({ viewport: { width, height: 900 } });
    await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
    await admin.page.getByRole("link", { name: "Bookings" }).click();
    await expect(admin.page).toHaveURL("/admin/bookings");
    const main = admin.page.getByRole("main");
    await main.getByLabel("Status").selectOption({ label: "Cancelled" });
    await main.getByLabel("City").selectOption({ label: "Kathmandu" });
    await expect(admin.page).toHaveURL(/status=cancelled/);
    await expect(admin.page).toHaveURL(/city=kathmandu/);
    const rows = main.getByRole("list", { name: "Bookings" }).getByRole("listitem");
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) await expect(row).toContainText("Cancelled");
    await expect(main.getByRole("listitem").filter({ hasText: "Nabin Rai" }).first()).toBeVisible();

    // the customer's name narrows the list to their bookings (the city filter gives way)
    await rows
      .filter({ hasText: "Nabin Rai" })
      .first()
      .getByRole("button", { name: "Bikash Shrestha" })
      .click();
    await expect(admin.page).toHaveURL(/customer=/);
    await expect(admin.page).not.toHaveURL(/city=/);
    await expect(main.getByText(/^Customer:/)).toBeVisible();
    await admin.page.screenshot({
      path: `e2e/screenshots/admin-bookings-${width}.png`,
      fullPage: true,
    });

    // the newest cancelled booking of this customer is ours: open it
    await rows.first().getByRole("link", { name: "Open booking" }).click();
    await expect(admin.page).toHaveURL(/\/admin\/bookings\/[^/?]+$/);
    const log = main.getByRole("list", { name: "Event log" });
    const steps = log.getByRole("listitem");
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(0)).toContainText("Requested");
    await expect(steps.nth(0)).toContainText("by Bikash Shrestha (customer)");
    await expect(steps.nth(1)).toContainText("Cancelled");
    await expect(steps.nth(1)).toContainText("by Bikash Shrestha (customer)");
    await expect(steps.nth(1)).toContainText(`Reason: ${reason}`);
    await admin.page.screenshot({
      path: `e2e/screenshots/admin-booking-log-${width}.png`,
      fullPage: true,
    });
  });
}
