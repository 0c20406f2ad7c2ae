import { expect, test } from "../../fixtures";

/** The account page does not jump in width as the customer moves between its tabs. */
for (const width of [360, 1280]) {
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
