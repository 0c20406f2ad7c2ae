import { E2E } from "../../env";
import { expect, test } from "../../fixtures";
import { signedInAdmin } from "../../people";

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
