import { expect, test } from "../../fixtures";
import { unique } from "../../env";
import { bookAt, kathmanduDay, verifiedElectrician } from "../../people";

const PHONE = { width: 360, height: 740 };

test("View booking in a notification opens that booking, for the customer and the professional", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const { pro, professional } = await verifiedElectrician(actor, PHONE);
  const customer = await actor({ viewport: PHONE });
  await customer.auth.login("customer2@demo.np", "demo-password-1", "Customer");
  const [older, newer] = [`Older ${unique()}`, `Newer ${unique()}`];
  const day = kathmanduDay(2).date;
  await bookAt(customer, pro.name, `${day}T11:00`, older);
  await bookAt(customer, pro.name, `${day}T15:00`, newer);

  // the professional's alerts: the older request's notification opens its card
  const pp = professional.page;
  await pp.getByRole("link", { name: "Alerts" }).click();
  const notes = pp.getByRole("region", { name: "Notifications" }).getByRole("listitem");
  await expect(notes.nth(1)).toBeVisible(); // newest first: the newer request, then the older
  await notes.nth(1).getByRole("link", { name: "View booking" }).click();
  await expect(pp).toHaveURL(/booking=/);
  const olderCard = professional.dashboard.booking(older);
  await expect(olderCard).toHaveAttribute("aria-current", "true");
  await expect(olderCard).toBeInViewport();
  await expect(professional.dashboard.booking(newer)).not.toHaveAttribute("aria-current", "true");
  await olderCard.getByRole("button", { name: "Accept" }).click();
  await expect(olderCard).toContainText("Accepted");

  // the customer's notification of the acceptance opens the older booking, not the list's top
  const cp = customer.page;
  await cp.goto("/customer/notification");
  const accepted = cp.getByRole("listitem").filter({ hasText: "Booking accepted" }).first();
  await accepted.getByRole("link", { name: "View booking" }).click();
  await expect(cp).toHaveURL(/tab=bookings&booking=/);
  const card = cp.getByRole("listitem").filter({ hasText: older });
  await expect(card).toHaveAttribute("aria-current", "true");
  await expect(card).toBeInViewport();
  await cp.screenshot({ path: "e2e/screenshots/notification-opens-booking-360.png" });
});
