import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";
import { kathmanduInput, newCustomer, signedInAdmin, verifiedElectrician } from "./people";

/** Defect 9 (issue 15): the small ones, each seen where the user meets it. */
test.describe("defect 9, the small ones", () => {
  for (const width of [360, 1280]) {
    test(`a rating is drawn to the half star, e.g. 4.5 as four and a half (${width} px)`, async ({
      actor,
    }) => {
      const visitor = await actor({ viewport: { width, height: 800 } });
      await visitor.search.open("Electrician", "Nepalgunj");
      const card = visitor.page
        .getByRole("listitem")
        .filter({ hasText: E2E.demoProfessional.name });
      const stars = card.getByRole("img", { name: /out of 5 stars/ });
      const label = (await stars.getAttribute("aria-label")) ?? "";
      const average = Number(/^([\d.]+) out of 5/.exec(label)?.[1]);
      const fills = await stars
        .locator("[data-fill]")
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-fill"))));
      const halves = Math.round(average * 2);
      expect(fills).toEqual(
        [0, 1, 2, 3, 4].map((i) => Math.min(1, Math.max(0, (halves - 2 * i) / 2))),
      );
      // the demo data rates Ram 5 and 4: four full stars and a half, not five
      if (average === 4.5) expect(fills).toEqual([1, 1, 1, 1, 0.5]);
      // the half star is drawn half: its coloured copy is clipped to the left half
      if (fills.includes(0.5)) {
        const half = stars.locator('[data-fill="0.5"] svg').nth(1);
        await expect(half).toHaveCSS("clip-path", "inset(0px 50% 0px 0px)");
      }
    });

    test(`the account page keeps its width between tabs (${width} px)`, async ({ actor }) => {
      const customer = await actor({ viewport: { width, height: 800 } });
      await customer.auth.login("customer@demo.np", "demo-password-1", "Customer");
      await customer.page.goto("/customer/profile");
      const widths: number[] = [];
      for (const tab of ["My Profile", "My Bookings", "Notifications", "My Profile"]) {
        await customer.page.getByRole("button", { name: tab, exact: true }).click();
        const section = customer.page.getByRole("region", { name: tab, exact: true });
        await expect(section).toBeVisible();
        await expect(section.getByText(/Loading/)).toHaveCount(0);
        widths.push(await section.evaluate((e) => e.getBoundingClientRect().width));
      }
      expect(new Set(widths).size, `widths: ${widths.join(", ")}`).toBe(1);
    });
  }

  test("the admin sidebar's background runs the page's full height", async ({ actor }) => {
    const admin = await signedInAdmin(actor);
    await admin.page.setViewportSize({ width: 1280, height: 600 });
    await admin.page.goto("/admin-panel");
    await expect(admin.admin.technicianCard(E2E.demoProfessional.name)).toBeVisible();
    const { aside, page } = await admin.page.evaluate(() => {
      window.scrollTo(0, document.scrollingElement!.scrollHeight);
      const box = document.querySelector("aside")!.getBoundingClientRect();
      return {
        aside: box.height,
        page: document.scrollingElement!.scrollHeight,
      };
    });
    expect(page).toBeGreaterThan(600);
    expect(aside).toBe(page);
  });

  test("tile/marble: 'Rs. 0' says 'Price on inspection' beside it", async ({ actor }) => {
    const visitor = await actor({ viewport: { width: 360, height: 800 } });
    await visitor.page.goto("/services-tile-Marbal");
    for (const name of [
      "Tile Fitting Wall",
      "Tile Fitting Floor",
      "Tile Fitting Roof",
      "Marble Fitting Floor",
      "Marble Fitting Wall",
    ]) {
      const row = visitor.page.getByRole("listitem").filter({ hasText: name });
      await expect(row).toContainText("Rs. 0");
      await expect(row).toContainText("Price on inspection");
    }
  });

  test("a wrong password on professional sign-in shows the spec's text and the reason under it", async ({
    actor,
  }) => {
    const pro = await actor({ viewport: { width: 360, height: 800 } });
    await pro.page.goto("/professional-signin");
    await pro.page.getByLabel("Email").fill(E2E.demoProfessional.email);
    await pro.page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await pro.page.getByRole("button", { name: "Sign in" }).click();
    const alert = pro.page
      .getByRole("alert")
      .filter({ hasText: "An error occurred. Please try again." });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("Invalid email or password");
    await pro.page.screenshot({ path: "e2e/screenshots/issue-15-signin-wrong-password-360.png" });
  });

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
    for (const step of ["Accept", "Start trip", "Arrived", "Complete"]) {
      await job.getByRole("button", { name: step, exact: true }).click();
      await expect(job.getByRole("button", { name: step, exact: true })).toHaveCount(0);
    }
    await c.goto("/customer/profile?tab=notifications");
    const notice = c.getByRole("listitem").filter({ hasText: "completed" }).first();
    await expect(notice).toContainText(`Total ${totalText}.`);
    await c.screenshot({ path: "e2e/screenshots/issue-15-notification-total-360.png" });
  });
});
