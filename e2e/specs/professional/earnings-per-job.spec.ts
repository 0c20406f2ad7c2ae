import { expect, test } from "../../fixtures";
import { LANGUAGES, m, money, say } from "../../i18n";
import { paidKathmanduJob } from "../../money";
import { expectNoSidewaysScroll, KATHMANDU_ELECTRICIAN } from "../../people";

const VIEWPORTS = { en: { width: 1280, height: 900 }, "ne-NP": { width: 360, height: 800 } };
const CUSTOMER = { email: "customer3@demo.np", password: "demo-password-1" };

for (const locale of LANGUAGES) {
  test(`a professional's Earnings page shows a paid job's gross, commission and net (${locale})`, async ({
    actor,
  }) => {
    test.setTimeout(120_000);
    const { totalPaisa } = await paidKathmanduJob(CUSTOMER);
    const commission = Math.round(totalPaisa * 0.1);

    const pro = await actor({ viewport: VIEWPORTS[locale], locale });
    await pro.auth.professionalSignIn(KATHMANDU_ELECTRICIAN.email, KATHMANDU_ELECTRICIAN.password);
    const p = pro.page;
    await p.getByRole("link", { name: say(locale, m.earnings_open), exact: true }).click();
    await expect(p).toHaveURL("/professional/earnings");
    await expect(p.getByRole("heading", { level: 1 })).toHaveText(say(locale, m.earnings_title));

    // the newest job is this one: Khalti, its bill, 10% commission, the rest earned
    const job = p
      .getByRole("region", { name: say(locale, m.label_jobs) })
      .getByRole("listitem")
      .first();
    for (const [label, value] of [
      [m.earnings_gross, money(locale, totalPaisa)],
      [m.label_commission, money(locale, commission)],
      [m.earnings_net, money(locale, totalPaisa - commission)],
      [m.label_paid_by, say(locale, m.method_khalti)],
    ] as const)
      await expect(job.locator("dt", { hasText: say(locale, label) }).locator("+ dd")).toHaveText(
        value,
      );
    // today's bar is drawn
    await expect(
      p
        .getByRole("region", { name: say(locale, m.earnings_chart_title) })
        .locator("[data-bar='29']"),
    ).toHaveCount(1);
    await expectNoSidewaysScroll(pro);
    await p.screenshot({ path: `e2e/screenshots/earnings-${locale}.png`, fullPage: true });
  });
}
