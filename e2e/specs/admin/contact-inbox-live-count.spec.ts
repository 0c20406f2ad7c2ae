import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";

/** A contact message reaches the admins' inbox, its count live in the sidebar. */
test("a visitor's contact message raises the admin's unread count live; marking it handled lowers it", async ({
  actor,
}) => {
  const admin = await actor({ viewport: { width: 1280, height: 800 } });
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  await admin.page.goto("/admin/messages");
  const link = admin.page.getByRole("link", { name: /Messages/ });
  await expect(link).toBeVisible();
  const main = admin.page.getByRole("main");
  await expect(
    main.getByText("No unread messages.").or(main.getByRole("listitem").first()),
  ).toBeVisible();
  const before = await main.getByRole("listitem").count();

  const visitor = await actor({ viewport: { width: 360, height: 800 } });
  const text = `Do you serve Butwal? ${unique()}`;
  await visitor.page.goto("/contact");
  await visitor.page.getByLabel("Name").fill("Maya Rai");
  await visitor.page.getByLabel("Email").fill("maya@example.np");
  await visitor.page.getByLabel("Your message").fill(text);
  await visitor.page.getByRole("button", { name: "Send message" }).click();

  await expect(link.getByLabel(`${before + 1} unread`)).toBeVisible();
  const item = admin.page.getByRole("listitem").filter({ hasText: text });
  await expect(item).toBeVisible();
  await expect(item.getByRole("link", { name: "Reply by email" })).toHaveAttribute(
    "href",
    /^mailto:maya@example\.np/,
  );
  await admin.page.screenshot({ path: "e2e/screenshots/admin-inbox-1280.png" });
  await item.getByRole("button", { name: "Mark handled" }).click();
  await expect(item).toBeHidden();
  if (before === 0) await expect(link.getByLabel(/unread/)).toHaveCount(0);
  else await expect(link.getByLabel(`${before} unread`)).toBeVisible();
});
