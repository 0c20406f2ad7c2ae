import { expect, test } from "../../fixtures";
import { unique, uniquePhone } from "../../env";
import { m, say } from "../../i18n";

/*
 * A booking's address is taken as the customer gives it: a street named after another city
 * ("Surkhet Road" in Nepalgunj) is no reason to refuse it, and a customer whose home is in
 * Kathmandu is not offered their Kathmandu street for a job in Nepalgunj. On a Nepali phone.
 */

const PHONE = { width: 360, height: 740 };
const PRO = "Dipak Chaudhary"; // the demo plumber in Nepalgunj

test("a Nepalgunj booking takes “Surkhet Road” and proposes no Kathmandu street", async ({
  actor,
}) => {
  test.setTimeout(90_000);
  const l = "ne-NP";
  const id = unique();
  const customer = await actor({ locale: l, viewport: PHONE });
  await customer.auth.signUpCustomer({
    name: `Aasha Karki ${id}`,
    email: `aasha.${id}@example.np`,
    phone: uniquePhone(),
    password: "aasha-password-1",
    address: "Baneshwor-10, Kathmandu",
    zipCode: "44600",
  });

  const p = customer.page;
  await customer.search.open("Plumber", "Nepalgunj");
  const title = say(l, m.book_title, { name: PRO });
  await p
    .getByRole("listitem")
    .filter({ hasText: PRO })
    .getByRole("button", { name: title })
    .click();
  const dialog = p.getByRole("dialog", { name: title });
  const address = dialog.getByLabel(say(l, m.label_address), { exact: true });
  // the Kathmandu home is not proposed for a job in Nepalgunj
  await expect(address).toHaveValue("");
  await dialog.getByRole("checkbox").first().check();
  await address.fill("Ward 1, Surkhet Road, near Bageshwari temple");
  await p.screenshot({ path: "e2e/screenshots/address/booking-dialog-ne-360.png" });
  await dialog.getByRole("button", { name: say(l, m.book_confirm) }).click();
  await expect(dialog).toBeHidden();
  await expect(p.getByText(say(l, m.book_sent, { name: PRO }))).toBeVisible();
});
