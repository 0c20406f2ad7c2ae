import { unique } from "../../env";
import { expect, test } from "../../fixtures";
import { kathmanduInput, newCustomer, startAtTheDoor, verifiedElectrician } from "../../people";

test("a cancelled booking says who cancelled; a completed job's notification formats the total", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const { pro, professional } = await verifiedElectrician(actor, { width: 1280, height: 800 });

  const customer = await actor({ viewport: { width: 360, height: 800 } });
  const me = newCustomer();
  await customer.auth.signUpAndLogInCustomer(me);
  const c = customer.page;

  // a booking the customer cancels: both sides read who cancelled
  const cancelled = `Cancel me ${unique()}`;
  await customer.search.open("Electrician", "Nepalgunj");
  await customer.search.book(pro.name, { services: [], note: cancelled, firstService: true });
  await customer.account.openBookings();
  const mine = customer.account.booking(cancelled);
  await mine.getByRole("button", { name: "Cancel booking" }).click();
  const dialog = c.getByRole("dialog");
  await dialog.getByLabel("Reason").fill("Fixed it myself, thank you.");
  await dialog.getByRole("button", { name: "Cancel booking" }).click();
  await expect(mine).toContainText("Cancelled by you");
  await expect(professional.dashboard.booking(cancelled)).toContainText(
    "Cancelled by the customer",
  );

  // a job booked for soon, with every service, taken to completion
  const done = `All the wiring ${unique()}`;
  await customer.search.open("Electrician", "Nepalgunj");
  await c.getByRole("button", { name: `Book ${pro.name}` }).click();
  const book = c.getByRole("dialog", { name: `Book ${pro.name}` });
  // every priced service, so the total runs into thousands
  const priced = book.getByRole("listitem").filter({ hasText: /Nrs\./ }).getByRole("checkbox");
  await expect(priced.first()).toBeEnabled();
  for (let i = 0; i < (await priced.count()); i++) await priced.nth(i).check();
  await book.getByLabel("Date and time (Nepal time)").fill(kathmanduInput(20));
  await book.getByLabel("Note for the professional (optional)").fill(done);
  const total = book.locator("p", { hasText: "Total price" }).locator("strong");
  await expect(total).toContainText("Nrs.");
  const totalText = (await total.textContent())!.trim();
  expect(totalText).toMatch(/^Nrs\. \d{1,2}(,\d{2})*,?\d{3}$|^Nrs\. \d{1,3}$/);
  await book.getByRole("button", { name: "Confirm booking" }).click();
  await expect(book).toBeHidden();

  const job = professional.dashboard.booking(done);
  const tap = async (step: string) => {
    await job.getByRole("button", { name: step, exact: true }).click();
    await expect(job.getByRole("button", { name: step, exact: true })).toHaveCount(0);
  };
  for (const step of ["Accept", "Start trip", "Arrived"]) await tap(step);
  await startAtTheDoor(customer, professional, done);
  await tap("Complete");
  await c.goto("/customer/profile?tab=notifications");
  const notice = c.getByRole("listitem").filter({ hasText: "completed" }).first();
  await expect(notice).toContainText(`Total ${totalText}.`);
  await c.screenshot({ path: "e2e/screenshots/notification-total-360.png" });
});
