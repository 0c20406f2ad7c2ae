import { expect, test } from "../../fixtures";
import { m, say } from "../../i18n";
import { kathmanduInput, newCustomer, verifiedElectrician } from "../../people";

const LATIN = (text: string) => text.replace(/[०-९]/g, (d) => String("०१२३४५६७८९".indexOf(d)));

test("five wrong start codes lock the form; the customer starts the job with a tap, both see it live (ne)", async ({
  actor,
}) => {
  test.setTimeout(240_000);
  const { pro, professional } = await verifiedElectrician(actor, { width: 1280, height: 800 });
  const customer = await actor({ viewport: { width: 360, height: 800 }, locale: "ne-NP" });
  await customer.auth.signUpAndLogInCustomer(newCustomer());
  const note = `Door ${Math.random().toString(36).slice(2, 8)}`;

  // a job within the hour, accepted, on the way and arrived
  await customer.search.open("Electrician", "Nepalgunj");
  await customer.search.book(pro.name, {
    services: [],
    firstService: true,
    note,
    when: kathmanduInput(40),
  });
  await professional.dashboard.open();
  const job = professional.dashboard.booking(note);
  for (const step of ["Accept", "Start trip", "Arrived"]) {
    await job.getByRole("button", { name: step, exact: true }).click();
    await expect(job.getByRole("button", { name: step, exact: true })).toBeHidden();
  }

  // the customer's screen shows the code; the professional types a wrong one five times
  await customer.account.openBookings();
  const card = customer.account.booking(note);
  const code = LATIN(await card.getByTestId("start-code").innerText());
  const wrong = code
    .split("")
    .map((d) => String((Number(d) + 1) % 10))
    .join("");
  const field = job.getByLabel("Start code from the customer's screen");
  for (let left = 4; left >= 0; left--) {
    await field.fill(wrong);
    await job.getByRole("button", { name: "Start job" }).click();
    if (left > 0) await expect(job).toContainText(`Tries left: ${left}.`);
  }
  await expect(job.getByRole("status")).toHaveText(
    "Too many wrong codes: the customer now starts the job from their booking screen.",
  );
  await expect(field).toBeHidden();

  // the customer is asked to start it by tapping, and both see it start
  await expect(card).toContainText(
    say("ne-NP", m.start_code_spent_customer, { max: "५", name: pro.name }),
  );
  await customer.page.screenshot({ path: "e2e/screenshots/start-code-spent-ne-NP-360.png" });
  await card.getByRole("button", { name: say("ne-NP", m.start_code_confirm) }).click();
  await expect(card).toContainText(say("ne-NP", m.status_in_progress));
  await expect(job).toContainText("In progress");
  await professional.page.screenshot({ path: "e2e/screenshots/start-code-spent-en-1280.png" });
});
