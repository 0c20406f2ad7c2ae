import { unique } from "../../env";
import { expect, test, type Actor } from "../../fixtures";
import {
  bookAt,
  kathmanduInput,
  newCustomer,
  signedInAdmin,
  startAtTheDoor,
  verifiedElectrician,
} from "../../people";

/** The customer books `proName` for soon; the professional takes the job to completion. */
async function completedJob(customer: Actor, professional: Actor, proName: string, note: string) {
  await bookAt(customer, proName, kathmanduInput(30), note);
  const job = professional.dashboard.booking(note);
  await job.getByRole("button", { name: "Accept", exact: true }).click();
  const clash = professional.page.getByRole("dialog", { name: "Accept a clashing job?" });
  await expect(job.getByText("Accepted").or(clash)).toBeVisible();
  if (await clash.isVisible()) await clash.getByRole("button", { name: "Accept anyway" }).click();
  const tap = async (step: string) => {
    await job.getByRole("button", { name: step, exact: true }).click();
    await expect(job.getByRole("button", { name: step, exact: true })).toHaveCount(0);
  };
  for (const step of ["Start trip", "Arrived"]) await tap(step);
  await startAtTheDoor(customer, professional, note);
  await tap("Complete");
}

/** The customer confirms the job done and rates it; tapped through in seconds, it waits for an admin. */
async function review(customer: Actor, note: string, stars: number, comment: string) {
  await customer.account.openBookings();
  const card = customer.account.booking(note);
  await card.getByRole("button", { name: "Confirm job done" }).click();
  await card.getByRole("radio", { name: `${stars} star` }).check({ force: true });
  await card.getByLabel("Comment (optional)").fill(comment);
  await card.getByRole("button", { name: "Submit review" }).click();
  await expect(card.getByRole("button", { name: "Submit review" })).toHaveCount(0);
  await expect(
    customer.page.getByText("Thank you! Your review will appear once GharSewa has checked it."),
  ).toBeVisible();
}

/** The admin's open list of held reviews shows the new one live; publishing it takes it off. */
async function publish(admin: Actor, comment: string) {
  const held = admin.page.getByRole("listitem").filter({ hasText: comment });
  await held.getByRole("button", { name: "Publish" }).click();
  await expect(held).toHaveCount(0);
}

/**
 * The public profile: reviews with comments newest first and paginated, the rating
 * distribution and stats, no address or phone; a review of a job tapped through in seconds waits
 * for an admin, and appears live on another visitor's open profile once published; the
 * professional replies once.
 */
test("profile: reviews newest first, paginated, live to another visitor; distribution, stats, one reply, no contact details", async ({
  actor,
}) => {
  test.setTimeout(300_000);
  const { pro, professional } = await verifiedElectrician(actor, { width: 1280, height: 900 });
  // a customer writes at most 3 reviews a day: two customers write three each
  const customers: Actor[] = [];
  for (let i = 0; i < 2; i++) {
    const customer = await actor({ viewport: { width: 1280, height: 900 } });
    await customer.auth.signUpAndLogInCustomer(newCustomer());
    customers.push(customer);
  }
  const admin = await signedInAdmin(actor);
  await admin.page.goto("/admin/held-reviews");

  // a visitor has the profile open from before the first review
  const visitor = await actor({ viewport: { width: 360, height: 800 } });
  await visitor.search.open("Electrician", "Nepalgunj");
  await visitor.page
    .getByRole("listitem")
    .filter({ hasText: pro.name })
    .getByRole("link", { name: pro.name })
    .click();
  const v = visitor.page;
  const reviews = v.getByRole("region", { name: "Reviews" }).getByRole("listitem");
  await expect(v.getByText("No reviews yet.")).toBeVisible();

  const stars = [5, 4, 5, 3, 5, 4];
  const comments = stars.map((_, i) => `Review ${i + 1} ${unique()}`);
  for (let round = 0; round < stars.length; round += 2) {
    const notes = [0, 1].map((k) => `Job ${round + k + 1} ${unique()}`);
    const by = (k: number) => customers[round + k < 3 ? 0 : 1];
    for (const [k, note] of notes.entries())
      await completedJob(by(k), professional, pro.name, note);
    for (const [k, note] of notes.entries()) {
      await review(by(k), note, stars[round + k], comments[round + k]);
      // held (a job done within minutes): not on the profile until the admin publishes it
      await expect(reviews.filter({ hasText: comments[round + k] })).toHaveCount(0);
      await publish(admin, comments[round + k]);
      // live: the visitor's open page shows the published review on top, nobody reloads
      await expect(reviews.first()).toContainText(comments[round + k]);
    }
  }

  // the live page grew with each review; opened afresh: newest first, five a page, older on request
  await expect(reviews).toHaveCount(6);
  await v.reload();
  await expect(reviews).toHaveCount(5);
  await expect(reviews.first()).toContainText(comments[5]);
  await expect(reviews.nth(4)).toContainText(comments[1]);
  await v.getByRole("button", { name: "Show older reviews" }).click();
  await expect(reviews).toHaveCount(6);
  await expect(reviews.nth(5)).toContainText(comments[0]);

  // the distribution and the stats
  const distribution = v.getByRole("list", { name: "Rating distribution" }).getByRole("listitem");
  await expect(distribution.nth(0)).toHaveText(/5 star\s*3$/);
  await expect(distribution.nth(1)).toHaveText(/4 star\s*2$/);
  await expect(distribution.nth(2)).toHaveText(/3 star\s*1$/);
  await expect(distribution.nth(3)).toHaveText(/2 star\s*0$/);
  await expect(distribution.nth(4)).toHaveText(/1 star\s*0$/);
  const main = v.getByRole("main");
  await expect(main.locator("dt", { hasText: "Completed jobs" }).locator("+ dd")).toHaveText("6");
  await expect(main.locator("dt", { hasText: "Rating" }).locator("+ dd")).toHaveText("4.3 (6)");
  await expect(main.locator("dt", { hasText: "Responds in" }).locator("+ dd")).toHaveText(/minute/);
  await expect(main.locator("dt", { hasText: "Member since" }).locator("+ dd")).not.toBeEmpty();
  // no home address or phone
  await expect(main).not.toContainText(pro.phone);
  await expect(main).not.toContainText(pro.address);
  await expect(main).not.toContainText(pro.zipCode);
  await v.screenshot({ path: "e2e/screenshots/profile-360.png", fullPage: true });

  // the professional replies once to the newest review; everyone sees it, the form is gone
  const own = professional.page;
  await own.goto(new URL(v.url()).pathname);
  const newest = own.getByRole("listitem", { name: /^Review by/ }).first();
  await expect(newest).toContainText(comments[5]);
  await newest.getByLabel("Reply once (everyone can read it)").fill("Thank you, see you again!");
  await newest.getByRole("button", { name: "Send reply" }).click();
  await expect(newest).toContainText("Reply from the professional: Thank you, see you again!");
  await expect(newest.getByRole("button", { name: "Send reply" })).toHaveCount(0);
  await expect(reviews.first()).toContainText("Thank you, see you again!");
  // others read replies but cannot write one
  await expect(v.getByRole("button", { name: "Send reply" })).toHaveCount(0);
  await own.screenshot({ path: "e2e/screenshots/profile-1280.png", fullPage: true });
});
