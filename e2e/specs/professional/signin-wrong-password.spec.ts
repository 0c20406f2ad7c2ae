import { E2E } from "../../env";
import { expect, test } from "../../fixtures";

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
  await pro.page.screenshot({ path: "e2e/screenshots/signin-wrong-password-360.png" });
});
