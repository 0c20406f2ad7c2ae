import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";

/**
 * Admin desk: a customer reports a booking; the admins' open-report count rises live; the
 * admin resolves it with a note, and the reporter sees it resolved, with the note, live.
 */
for (const width of [360, 1280]) {
  test(`report a booking → the admin's queue count rises live → resolved → the reporter sees it (${width} px)`, async ({
    actor,
  }) => {
    const id = unique();
    const admin = await actor({ viewport: { width: 1280, height: 900 } });
    await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
    await admin.page.goto("/admin/reports");
    const link = admin.page.getByRole("link", { name: /^Reports/ });
    await expect(link).toBeVisible();
    const main = admin.page.getByRole("main");
    await expect(
      main.getByText("No open reports.").or(main.getByRole("listitem").first()),
    ).toBeVisible();
    const before = await main.getByRole("listitem").count();

    const customer = await actor({ viewport: { width, height: 800 } });
    await customer.auth.login("customer3@demo.np", "demo-password-1", "Customer");
    await customer.search.open("Water Purifier", "Pokhara");
    const note = `Filter change ${id}`;
    await customer.search.book("Prakash Bhandari", { services: [], note, firstService: true });
    await customer.account.openBookings();
    const card = customer.account.booking(note);
    await card.getByRole("button", { name: "Report a problem" }).click();
    const dialog = customer.page.getByRole("dialog", { name: "Report a problem" });
    await dialog.getByLabel("What happened?").selectOption({ label: "Asked for more money" });
    const text = `He asked for Nrs. 500 more on the phone ${id}`;
    await dialog.getByLabel("Tell us more").fill(text);
    await customer.page.screenshot({ path: `e2e/screenshots/report-dialog-${width}.png` });
    await dialog.getByRole("button", { name: "Send report" }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole("list", { name: "Your reports on this booking" })).toContainText(
      "Open",
    );

    // the sidebar count and the queue update on the admin's screen without a reload
    await expect(link.getByLabel(`${before + 1} open`)).toBeVisible();
    const item = main.getByRole("listitem").filter({ hasText: text });
    await expect(item).toBeVisible();
    await admin.page.screenshot({ path: "e2e/screenshots/admin-reports-1280.png" });
    await item.getByRole("link", { name: "Asked for more money" }).click();
    await expect(main).toContainText(text);
    await expect(main).toContainText("Anita Gurung");
    const answer = `We spoke to the professional; the price stays as booked ${id}`;
    await main.getByLabel("Note").fill(answer);
    await admin.page.screenshot({
      path: "e2e/screenshots/admin-report-1280.png",
      fullPage: true,
    });
    await main.getByRole("button", { name: "Resolve" }).click();
    await expect(main.getByRole("status")).toContainText(answer);
    if (before === 0) await expect(link.getByLabel(/open/)).toHaveCount(0);
    else await expect(link.getByLabel(`${before} open`)).toBeVisible();

    // the reporter sees the answer on the booking, live
    const mine = card.getByRole("list", { name: "Your reports on this booking" });
    await expect(mine).toContainText("Resolved");
    await expect(mine).toContainText(`GharSewa's answer: ${answer}`);
    await customer.page.screenshot({
      path: `e2e/screenshots/report-resolved-${width}.png`,
      fullPage: true,
    });
  });
}
