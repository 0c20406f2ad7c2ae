import { expect, test } from "../../fixtures";

/**
 * The header search opens in the user's city — a signed-in customer's own,
 * a visitor's chosen one — not always Nepalgunj, and Nepali words find services.
 */
for (const width of [360, 1280]) {
  test(`header search: the customer's city, the chosen city, and 'बिजुली' finds electricians (${width} px)`, async ({
    actor,
  }) => {
    // Bikash lives in Baneshwor-10, Kathmandu
    const customer = await actor({ viewport: { width, height: 800 } });
    await customer.auth.login("customer2@demo.np", "demo-password-1", "Customer");
    const found = await customer.search.fromHeader("बिजुली");
    expect(found.get("serviceName")).toBe("Electrician");
    expect(found.get("location")).toBe("Kathmandu");
    await expect(customer.page.getByRole("heading", { level: 1 })).toContainText("Kathmandu");
    await expect(
      customer.page.getByRole("listitem").filter({ hasText: "Gopal Shrestha" }),
    ).toBeVisible();

    // a visitor who picked Pokhara on the search page searches there next
    const visitor = await actor({ viewport: { width, height: 800 } });
    await visitor.search.open("Painter", "Nepalgunj");
    await visitor.page.getByLabel("Location").selectOption({ label: "Pokhara" });
    await expect(visitor.page).toHaveURL(/location=Pokhara/);
    const chosen = await visitor.search.fromHeader("carpen");
    expect(chosen.get("location")).toBe("Pokhara");
    expect(chosen.get("serviceName")).toMatch(/^Carpent/);

    // in Nepali too
    await visitor.page.getByRole("button", { name: "नेपाली" }).first().click();
    const box = visitor.page.getByRole("combobox", { name: "सेवा खोज्नुहोस्" });
    await box.fill("बिजुली");
    await expect(visitor.page.getByRole("option").first()).toBeVisible();
    await visitor.page.screenshot({
      path: `e2e/screenshots/header-search-ne-${width}.png`,
    });
  });
}
