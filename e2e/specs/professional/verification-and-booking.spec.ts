import { expect, test } from "../../fixtures";
import { E2E, unique, uniquePhone } from "../../env";

const NEPALGUNJ = { latitude: 28.05, longitude: 81.6167 };

test("a professional signs up with documents, the admin verifies them live, a customer books, the accept and the position reach the customer live", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const id = unique();
  const pro = {
    name: `Bishal Karki ${id}`,
    email: `bishal.${id}@example.np`,
    phone: uniquePhone(),
    password: "bishal-password-1",
    address: "Ward 3, Dhamboji, Nepalgunj",
    zipCode: "21900",
    city: "Nepalgunj",
    state: "Lumbini",
    specialty: "Jyotish",
  };

  // The admin watches the technicians grid before the professional exists.
  const admin = await actor();
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await expect(admin.page.getByRole("heading", { name: "Technicians" })).toBeVisible();

  const professional = await actor({ permissions: ["geolocation"], geolocation: NEPALGUNJ });
  await professional.auth.signUpProfessional(pro);
  await expect(admin.admin.technicianCard(pro.name)).toBeVisible();

  await professional.auth.professionalSignIn(pro.email, pro.password);
  await expect(professional.dashboard.accountStatus()).toContainText("Unverified");
  await professional.auth.verifyPhone(pro.phone);

  const documents = await admin.admin.openTechnician(pro.name);
  for (const doc of ["Citizenship Front", "Citizenship Back", "Training Certificate"]) {
    const image = documents.getByRole("img", { name: `${doc} of ${pro.name}` });
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
  }
  await documents.getByRole("button", { name: "Verify" }).click();
  await expect(professional.dashboard.accountStatus()).toContainText("Verified");
  await expect(professional.dashboard.accountStatus()).not.toContainText("Unverified");

  // A customer books the newly verified professional; the request appears on the dashboard by itself.
  const customer = await actor();
  await customer.auth.login("customer@demo.np", "demo-password-1", "Customer");
  await customer.search.open("Jyotish", "Nepalgunj");
  const note = `Auspicious date for griha pravesh ${id}`;
  await customer.search.book(pro.name, { services: [], note, firstService: true });

  const request = professional.dashboard.booking(note);
  await expect(request).toContainText("Sita Sharma");
  await request.getByRole("button", { name: "Accept" }).click();
  await expect(request).toContainText("Accepted");

  // The professional's browser position reaches the customer's map (exact: the booking is active).
  await customer.search.open("Jyotish", "Nepalgunj");
  await expect(customer.search.marker(pro.name)).toBeVisible();
  const before = await customer.search.markerTransform(pro.name);
  await professional.page.context().setGeolocation({ latitude: 28.0605, longitude: 81.6301 });
  await expect
    .poll(() => customer.search.markerTransform(pro.name), { timeout: 20_000 })
    .not.toBe(before);

  await customer.account.openBookings();
  await expect(customer.account.booking(note)).toContainText("Accepted");
  await professional.page.screenshot({
    path: "e2e/screenshots/professional-dashboard.png",
    fullPage: true,
  });
  await admin.page.screenshot({ path: "e2e/screenshots/admin-technicians.png", fullPage: true });
});
