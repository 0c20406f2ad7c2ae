import { expect, test } from "../../fixtures";
import { unique } from "../../env";
import { bookAt, kathmanduDay, verifiedElectrician } from "../../people";

/**
 * The professional's work queue is safe — a new request is at the top, a
 * request that clashes with an accepted job warns before it is accepted, and the job's own steps
 * are refused (with the time they open) more than an hour before the booked time.
 */
for (const width of [360, 1280]) {
  test(`work queue: new request on top, clash warned before accepting, steps wait for the booked time (${width} px)`, async ({
    actor,
  }) => {
    test.setTimeout(120_000);
    const { pro, professional } = await verifiedElectrician(actor, { width, height: 800 });
    const queue = professional.page.getByRole("region", { name: "Bookings" }).getByRole("listitem");

    const day = kathmanduDay(1).date;
    const [first, second, third] = [`First ${unique()}`, `Clash ${unique()}`, `Newest ${unique()}`];
    const sita = await actor();
    await sita.auth.login("customer@demo.np", "demo-password-1", "Customer");
    await bookAt(sita, pro.name, `${day}T10:00`, first);
    // a second request of hers for the same morning: another customer's request holds its time
    // (rules/schedule.ts), a customer's own requests do not block each other
    await bookAt(sita, pro.name, `${day}T10:30`, second);
    await expect(queue.first()).toContainText(second);

    const accepted = professional.dashboard.booking(first);
    await accepted.getByRole("button", { name: "Accept" }).click();
    await expect(accepted).toContainText("Accepted");
    // tomorrow's job: Start trip is refused, and the card says from when it opens
    await expect(accepted.getByRole("button", { name: "Start trip" })).toBeDisabled();
    await expect(accepted).toContainText(
      /You can start this job from .*, one hour before the booked time\./,
    );

    const clashing = professional.dashboard.booking(second);
    await expect(clashing.getByRole("note")).toContainText("Clashes with your accepted job at");
    await clashing.getByRole("button", { name: "Accept" }).click();
    const warning = professional.page.getByRole("dialog", { name: "Accept a clashing job?" });
    await expect(warning).toContainText("within two hours of this one");
    await professional.page.screenshot({
      path: `e2e/screenshots/clash-warning-${width}.png`,
    });
    await warning.getByRole("button", { name: "Go back" }).click();
    await expect(warning).toBeHidden();
    await expect(clashing.getByRole("button", { name: "Accept" })).toBeVisible();

    // a request arriving now goes above the one already reviewed and the accepted job
    // from another customer (two open requests per customer and professional)
    const anita = await actor();
    await anita.auth.login("customer3@demo.np", "demo-password-1", "Customer");
    await bookAt(anita, pro.name, `${day}T16:00`, third);
    await expect(queue.first()).toContainText(third);
    await expect(queue.nth(1)).toContainText(second);
    await expect(queue.nth(2)).toContainText(first);

    await clashing.getByRole("button", { name: "Accept" }).click();
    await warning.getByRole("button", { name: "Accept anyway" }).click();
    await expect(clashing).toContainText("Accepted");
    await professional.page.screenshot({
      path: `e2e/screenshots/work-queue-${width}.png`,
      fullPage: true,
    });
  });
}
