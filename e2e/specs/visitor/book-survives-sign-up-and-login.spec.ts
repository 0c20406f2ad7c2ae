import { E2E, unique, uniquePhone } from "../../env";
import { expect, test } from "../../fixtures";

/**
 * A visitor's Book survives login and sign-up, and a refused booking
 * says why inside the dialog, not under its backdrop. Seen at 360 px and 1280 px.
 */
for (const width of [360, 1280]) {
  test(`Book as a visitor → sign up → the dialog reopens; a refusal shows inside it (${width} px)`, async ({
    actor,
  }) => {
    const id = unique();
    const visitor = await actor({ viewport: { width, height: 800 } });
    const p = visitor.page;
    await visitor.search.open("Electrician", "Nepalgunj");
    const card = p.getByRole("listitem").filter({ hasText: E2E.demoProfessional.name });
    await card.getByRole("button", { name: "Book" }).click();
    await expect(p).toHaveURL(/\/login\?returnTo=/);

    await p.getByRole("form", { name: "Login" }).getByRole("link", { name: "Signup" }).click();
    await expect(p).toHaveURL(/\/signup\?returnTo=/);
    await p.goto(p.url().replace("/signup", "/user-signup"));
    const user = {
      name: `Intent ${id}`,
      email: `intent-${id}@example.np`,
      phone: uniquePhone(),
      password: "intent-password-1",
      address: "Baneshwor-10, Kathmandu",
      zipCode: "44600",
    };
    await visitor.auth.fillAccount(user);
    // sign-up signs in: back on the search page at once
    await p.getByRole("button", { name: "Create Account" }).click();

    // back on the search page, service and city kept, the booking dialog open again
    await expect(p).toHaveURL(/\/services\/search\?.*serviceName=Electrician/);
    const dialog = p.getByRole("dialog", { name: `Book ${E2E.demoProfessional.name}` });
    await expect(dialog).toBeVisible();
    // the profile's Kathmandu address is not proposed for a Nepalgunj booking
    await expect(dialog.getByLabel("Address")).toHaveValue("");

    await dialog.getByRole("checkbox").first().check();
    await dialog.getByLabel("Address").fill("Lakeside-6, Pokhara");
    await dialog.getByRole("button", { name: "Confirm booking" }).click();
    const alert = dialog.getByRole("alert");
    await expect(alert).toContainText("The address names Pokhara");
    await expect(alert).toBeInViewport();
    await p.screenshot({ path: `e2e/screenshots/refusal-in-dialog-${width}.png` });

    await p.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // opened from Book, Esc closes the dialog and focus returns to Book
    const book = card.getByRole("button", { name: "Book" });
    await book.click();
    await expect(dialog).toBeVisible();
    await p.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(book).toBeFocused();
  });
}
