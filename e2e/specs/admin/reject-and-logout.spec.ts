import { expect, test } from "../../fixtures";
import { E2E, unique, uniquePhone } from "../../env";
import { m } from "../../i18n";

test("the admin login explains failures, a rejection with a note reaches the professional live, re-submitted documents reach the admin live, and Logout locks the panel", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const id = unique();
  const pro = {
    name: `Ramesh Bohara ${id}`,
    email: `ramesh.${id}@example.np`,
    phone: uniquePhone(),
    password: "ramesh-password-1",
    address: "Hasanpur-2, Dhangadi",
    zipCode: "10900",
    city: "Dhangadi",
    state: "Sudurpashchim",
    specialty: "Mason",
  };

  const admin = await actor();
  const page = admin.page;
  await page.goto("/admin-panel");
  await expect(page).toHaveURL("/admin-login");
  await page.getByLabel("Username").fill(E2E.admin.username);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Login failed. Please check your credentials and try again.",
  );
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);

  // Only technicians waiting for verification: the new one appears there by itself.
  await page
    .getByLabel("Verification", { exact: true })
    .selectOption({ label: "Unverified (waiting)" });
  const professional = await actor({
    permissions: ["geolocation"],
    geolocation: { latitude: 28.6833, longitude: 80.6 },
  });
  await professional.auth.signUpProfessional(pro);
  await expect(admin.admin.technicianCard(pro.name)).toBeVisible();
  await expect(admin.admin.technicianCard(pro.name)).toContainText("Unverified");

  await professional.auth.professionalSignIn(pro.email, pro.password);
  await expect(professional.dashboard.accountStatus()).toContainText("Unverified");
  await expect(professional.page.getByRole("region", { name: "Bookings" })).toContainText(
    "No bookings available.",
  );

  const documents = await admin.admin.openTechnician(pro.name);
  await documents
    .getByLabel("Note for the professional (optional)")
    .fill(`Certificate is blurry ${id}`);
  await documents.getByRole("button", { name: "Reject" }).click();
  await expect(documents).toBeHidden();
  await expect(admin.admin.technicianCard(pro.name)).toHaveCount(0);

  await expect(professional.dashboard.accountStatus()).toContainText("Rejected");
  await professional.dashboard.openSection(m.dash_tab_hours);
  await expect(
    professional.page.getByText(`Note from GharSewa: Certificate is blurry ${id}`),
  ).toBeVisible();

  await page.getByLabel("Verification", { exact: true }).selectOption({ label: "Rejected" });
  await expect(admin.admin.technicianCard(pro.name)).toContainText("Rejected");

  // The professional sends new documents: the admin's waiting list shows them again by itself.
  await page
    .getByLabel("Verification", { exact: true })
    .selectOption({ label: "Unverified (waiting)" });
  await expect(admin.admin.technicianCard(pro.name)).toHaveCount(0);
  await professional.dashboard.resubmitDocuments();
  await expect(professional.dashboard.accountStatus()).toContainText("Unverified");
  await expect(
    professional.page.getByText(`Note from GharSewa: Certificate is blurry ${id}`),
  ).toHaveCount(0);
  await expect(admin.admin.technicianCard(pro.name)).toContainText("Unverified");
  await expect(admin.admin.technicianCard(pro.name)).toContainText("Documents re-submitted");
  const resubmitted = await admin.admin.openTechnician(pro.name);
  await expect(
    resubmitted.getByText("New documents re-submitted by the professional"),
  ).toBeVisible();
  await expect(
    resubmitted.getByRole("img", { name: `Training Certificate of ${pro.name}` }),
  ).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/admin-resubmitted.png", fullPage: true });
  await resubmitted.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/admin-login");
  await page.goto("/admin/technicians");
  await expect(page).toHaveURL("/admin-login");
});
