import { expect, test } from "../../fixtures";
import { E2E, unique, uniquePhone } from "../../env";

const pro = E2E.demoProfessional;

test("a new customer signs up, searches from the hero, sees a marker move, books, and watches the professional accept live", async ({
  actor,
  api,
}) => {
  const id = unique();
  const customer = await actor();
  const user = {
    name: "Hari Prasad Adhikari",
    email: `hari.${id}@example.np`,
    phone: uniquePhone(),
    password: "hari-password-1",
    address: "Ward 7, Surkhet Road, Nepalgunj",
    zipCode: "21900",
  };

  await customer.auth.signUpAndLogInCustomer(user);

  // The hero search insists on both a service and a location.
  const hero = customer.page.getByRole("form", { name: "Find a professional" });
  const alerts: string[] = [];
  customer.page.once("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await hero.getByRole("button", { name: "Search" }).click();
  await expect.poll(() => alerts).toEqual(["Please select both a service and location."]);
  await expect(customer.page).toHaveURL("/");

  await hero.getByLabel("Service").selectOption("Electrician");
  await hero.getByLabel("Location").selectOption("Nepalgunj");
  await hero.getByRole("button", { name: "Search" }).click();
  await expect(customer.page).toHaveURL(
    "/services/search?location=Nepalgunj&serviceName=Electrician",
  );

  // The professional reports a new position through the HTTP API; the customer's marker moves.
  const auth = await api.professionalLogin(pro.email, pro.password);
  await api.reportPosition(auth, 28.06, 81.62);
  await expect(customer.search.marker(pro.name)).toBeVisible();
  const before = await customer.search.markerTransform(pro.name);
  await api.reportPosition(auth, 28.075, 81.64);
  await expect.poll(() => customer.search.markerTransform(pro.name)).not.toBe(before);

  // Book, then the professional (a second browser) accepts and the customer sees it without reloading.
  const note = `Please bring a ladder ${id}`;
  await customer.search.book(pro.name, { services: ["Fan Installation"], note });
  await customer.account.openBookings();
  const booking = customer.account.booking(note);
  await expect(booking).toContainText("Requested");

  const professional = await actor();
  await professional.auth.professionalSignIn(pro.email, pro.password);
  const request = professional.dashboard.booking(note);
  await expect(request).toContainText(user.name);
  await request.getByRole("button", { name: "Accept" }).click();
  await expect(request).toContainText("Accepted");
  await expect(request.getByRole("button", { name: "Reject" })).toHaveCount(0);

  await expect(booking).toContainText("Accepted");
  await customer.page.screenshot({ path: "e2e/screenshots/customer-bookings.png", fullPage: true });
});

test("sign-up and login explain what is missing before anything is sent", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Please choose a role: Customer or Professional")).toBeVisible();

  await page.goto("/login");
  await page.getByLabel("Email").fill("someone@example.np");
  await page.getByLabel("Password", { exact: true }).fill("whatever-password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("Please select Customer or Professional")).toBeVisible();
});
