import { E2E, unique } from "../../env";
import { expect, test } from "../../fixtures";

const PRO = {
  email: "carpenter.pokhara@demo.np",
  password: "demo-password-1",
  name: "Krishna Magar",
};

/**
 * Admin desk: suspending a professional signs their open browser out at once and keeps
 * them out, and their card leaves a customer's open search page and joins another admin's open list
 * of suspended accounts; restoring undoes all three.
 */
for (const width of [360, 1280]) {
  test(`a suspension signs the professional out live and hides their card; restoring undoes it (${width} px)`, async ({
    actor,
  }) => {
    // two admins sign in, each with an authenticator code: one may wait for the next 30 s step
    test.setTimeout(120_000);
    const id = unique();
    const pro = await actor({ viewport: { width, height: 800 } });
    await pro.auth.professionalSignIn(PRO.email, PRO.password);

    const customer = await actor({ viewport: { width, height: 800 } });
    await customer.search.open("Carpenter", "Pokhara");
    const card = customer.page.getByRole("listitem").filter({ hasText: PRO.name });
    await expect(card.first()).toBeVisible();

    const watcher = await actor({ viewport: { width, height: 800 } });
    await watcher.auth.adminLogin(E2E.admin.username, E2E.admin.password);
    await watcher.page.goto("/admin/users");
    await watcher.page.getByLabel("Show").selectOption({ label: "Suspended accounts" });
    await expect(watcher.page).toHaveURL("/admin/users?show=suspended");
    const suspendedRow = watcher.page
      .getByRole("link", { name: PRO.name })
      .filter({ visible: true });
    await expect(watcher.page.getByText("Loading users…")).toHaveCount(0);
    await expect(suspendedRow).toHaveCount(0);

    const admin = await actor({ viewport: { width: 1280, height: 900 } });
    await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
    await admin.page.goto("/admin/users");
    await admin.page.getByLabel("Search users").fill("Krishna");
    await admin.page.getByRole("link", { name: PRO.name }).first().click();
    await expect(admin.page).toHaveURL(/\/admin\/users\/[^/]+$/);
    const reason = `Customers report no-shows ${id}`;
    await admin.page.getByLabel("Reason for suspending (kept in the history)").fill(reason);
    await admin.page.getByRole("button", { name: "Suspend account" }).click();

    // the professional's open dashboard is signed out and told why
    const notice = pro.page.getByRole("dialog", { name: "Your account has been suspended" });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("This account is suspended. Please contact support.");
    await pro.page.screenshot({ path: `e2e/screenshots/suspended-notice-${width}.png` });
    await notice.getByRole("button", { name: "OK" }).click();
    await expect(pro.page).not.toHaveURL("/professional-dashboard");
    // the customer's open search page loses the card, and the other admin's list of suspended gains it
    await expect(card).toHaveCount(0);
    await expect(suspendedRow).toBeVisible();
    await watcher.page.screenshot({ path: `e2e/screenshots/suspended-list-${width}.png` });

    // signing in again is refused, with the reason
    await pro.page.goto("/professional-signin");
    await pro.page.getByLabel("Email").fill(PRO.email);
    await pro.page.getByLabel("Password", { exact: true }).fill(PRO.password);
    await pro.page.getByRole("button", { name: "Sign in" }).click();
    await expect(
      pro.page.getByText("This account is suspended. Please contact support."),
    ).toBeVisible();
    await expect(pro.page).toHaveURL("/professional-signin");
    await pro.page.screenshot({ path: `e2e/screenshots/suspended-signin-${width}.png` });

    // the admin's user view records who, when and why
    const main = admin.page.getByRole("main");
    await expect(main.getByRole("status")).toContainText(reason);
    await expect(main.getByRole("list", { name: "Suspension history" })).toContainText(reason);
    await admin.page.screenshot({
      path: "e2e/screenshots/admin-user-suspended-1280.png",
      fullPage: true,
    });

    await admin.page
      .getByLabel("Reason for restoring (kept in the history)")
      .fill(`Cleared after a call ${id}`);
    await admin.page.getByRole("button", { name: "Restore account" }).click();
    await expect(main.getByText("Active", { exact: true })).toBeVisible();
    await expect(card.first()).toBeVisible();
    await expect(suspendedRow).toHaveCount(0);
    await pro.auth.professionalSignIn(PRO.email, PRO.password);
  });
}
