import { expect, test, type Actor } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";
import { newCustomer, verifiedElectrician } from "../../people";

/** Opens the booking dialog for `proName` with the first service ticked; the slots have loaded. */
async function openDialog(who: Actor, proName: string) {
  const title = say(who.locale, m.book_title, { name: proName });
  await who.search.open("Electrician", "Nepalgunj");
  await who.page.getByRole("button", { name: title }).click();
  const dialog = who.page.getByRole("dialog", { name: title });
  await dialog.getByRole("checkbox").first().check();
  const times = dialog.getByRole("group", { name: say(who.locale, m.book_slots_times) });
  await expect(times.getByRole("button").first()).toBeVisible();
  return { dialog, times, when: dialog.getByLabel(say(who.locale, m.book_when)) };
}

/** "14:30" as the English app writes it: "2:30 PM". */
const englishClock = (hhmm: string) => {
  const [h, mm] = hhmm.split(":").map(Number);
  return `${h % 12 || 12}:${String(mm).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
};

for (const locale of LANGUAGES) {
  test(`a free time another customer books disappears live and is refused with the next free times (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(180_000);
    const { pro } = await verifiedElectrician(actor, { width: 1280, height: 800 });
    const a = await actor({ viewport: { width: 360, height: 800 }, locale });
    const b = await actor({ viewport: { width: 1280, height: 800 } });
    await a.auth.signUpAndLogInCustomer(newCustomer());
    await b.auth.signUpAndLogInCustomer(newCustomer());

    // A picks the first free time, with its Bikram Sambat date beside the Gregorian one
    const mine = await openDialog(a, pro.name);
    const days = mine.dialog.getByRole("group", { name: say(locale, m.book_slots_days) });
    await expect(days.getByRole("button").first()).toContainText(locale === "en" ? "BS" : "२०८");
    const first = mine.times.getByRole("button").first();
    await first.click();
    await expect(first).toHaveAttribute("aria-pressed", "true");
    const picked = await mine.when.inputValue();
    await a.page.screenshot({ path: `e2e/screenshots/free-slots-${locale}-360.png` });

    // B books that very time from the slots
    const theirs = await openDialog(b, pro.name);
    await theirs.times.getByRole("button", { name: englishClock(picked.slice(11)) }).click();
    await expect(theirs.when).toHaveValue(picked);
    await b.page.screenshot({ path: `e2e/screenshots/free-slots-en-1280.png` });
    await theirs.dialog.getByRole("button", { name: "Confirm booking" }).click();
    await expect(theirs.dialog).toBeHidden();

    // on A's screen the time goes, and A is told, without reloading
    // (late in the day the whole day may go, and the picker shows the next day's times instead)
    await expect(mine.times.getByRole("button", { pressed: true })).toHaveCount(0);
    await expect(mine.dialog.getByRole("alert")).toHaveText(say(locale, m.book_slot_gone));

    // confirming it anyway is refused, with the next free times to pick from
    await mine.dialog.getByLabel(say(locale, m.label_address), { exact: true }).fill("Ward 4");
    await mine.dialog.getByRole("button", { name: say(locale, m.book_confirm) }).click();
    await expect(
      mine.dialog.getByRole("alert").filter({ hasText: say(locale, m.error_slot_taken) }),
    ).toBeVisible();
    const next = mine.dialog.getByRole("group", { name: say(locale, m.book_slots_next) });
    await next.getByRole("button").first().click();
    expect(await mine.when.inputValue()).not.toBe(picked);
    await a.page.screenshot({ path: `e2e/screenshots/free-slots-next-${locale}-360.png` });
    await mine.dialog.getByRole("button", { name: say(locale, m.book_confirm) }).click();
    await expect(mine.dialog).toBeHidden();
  });
}
