import { expect, test } from "../../fixtures";
import { E2E, unique } from "../../env";
import { AdminPages } from "../../pages/admin-pages";

test("a professional signs up with documents, the admin verifies live, a customer sees the professional's position move and books", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const id = unique();
  const newPro = {
    name: `Bishal Karki ${id}`,
    email: `bishal.${id}@example.np`,
    phone: "9801234567",
    password: "bishal-password-1",
    address: "Ward 9, BP Chowk, Surkhet",
    zipCode: "21700",
    city: "Surkhet",
    state: "Karnali",
    specialty: "Electrician",
  };

  // The admin watches the grid of technicians waiting for verification.
  const adminActor = await actor();
  const admin = new AdminPages(adminActor.page);
  await adminActor.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await admin.filterVerification("Unverified (waiting)");
  await expect(admin.card(newPro.name)).toHaveCount(0);

  // The professional signs up through the UI with three document images…
  const proActor = await actor({
    permissions: ["geolocation"],
    geolocation: { latitude: 28.6, longitude: 81.6333, accuracy: 10 },
  });
  await proActor.auth.signUpProfessional(newPro);

  // …and appears in the admin's grid without a reload.
  await expect(admin.card(newPro.name)).toBeVisible();
  await expect(admin.card(newPro.name)).toContainText("Unverified");

  // Signed in, the dashboard says Unverified and shows the live map at the device's position.
  await proActor.auth.professionalSignIn(newPro.email, newPro.password);
  await expect(proActor.dashboard.accountStatus()).toHaveText("Unverified");
  await expect(proActor.page.locator(".leaflet-marker-icon[title=\"Technician's Current Location\"]")).toBeVisible();

  // The admin opens the documents and verifies with a note; the dashboard badge turns Verified live.
  await admin.card(newPro.name).click();
  const documents = admin.documents(newPro.name);
  await expect(documents).toHaveCount(3);
  for (const img of await documents.all()) {
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  }
  await admin.dialog(newPro.name).getByLabel("Note for the professional (optional)").fill("Documents look good.");
  await admin.dialog(newPro.name).getByRole("button", { name: "Verify" }).click();
  await expect(admin.dialog(newPro.name)).toBeHidden();
  await expect(proActor.dashboard.accountStatus()).toHaveText("Verified");
  await expect(proActor.page.getByText("Documents look good.")).toBeVisible();

  // A customer's search map shows the professional; the device moves about 2 km and the marker follows.
  const customer = await actor();
  await customer.auth.login("customer@demo.np", "demo-password-1", "Customer");
  await customer.search.open("Electrician", "Surkhet");
  await expect(customer.search.marker(newPro.name)).toBeVisible();
  const before = await customer.search.markerTransform(newPro.name);
  await proActor.page.context().setGeolocation({ latitude: 28.618, longitude: 81.6333, accuracy: 10 });
  await expect.poll(() => customer.search.markerTransform(newPro.name), { timeout: 15_000 }).not.toBe(before);

  // The customer books; the request appears on the dashboard without a reload, highlighted as new.
  const note = `Kitchen light flickers ${id}`;
  await customer.search.book(newPro.name, { services: ["Fan Installation"], note });
  const request = proActor.dashboard.booking(note);
  await expect(request).toContainText("Sita Sharma");
  await expect(request).toContainText("New");
  await request.getByRole("button", { name: "Accept" }).click();
  await expect(request).toContainText("Accepted");
  await expect(request.getByRole("button", { name: "Accept" })).toHaveCount(0);

  await customer.account.openBookings();
  await expect(customer.account.booking(note)).toContainText("Accepted");

  await adminActor.page.screenshot({ path: "e2e/screenshots/admin-technicians.png", fullPage: true });
  await proActor.page.screenshot({ path: "e2e/screenshots/professional-dashboard.png", fullPage: true });
});
