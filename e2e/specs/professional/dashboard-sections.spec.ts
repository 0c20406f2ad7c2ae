import { expect, test } from "../../fixtures";
import { m, say, type PlainMessage } from "../../i18n";
import { newProfessional, signedInAdmin, signUpProfessional } from "../../people";

const PHONE = { width: 360, height: 740 };
/** The page a phone scrolls: at most three screens, where it was ten (7,219 px) before sections. */
const MAX_PAGE_PX = 3 * PHONE.height;

test("a phone reaches each dashboard section in one tap, a link opens one, and the bell opens the alerts", async ({
  actor,
}) => {
  test.setTimeout(120_000);
  const admin = await signedInAdmin(actor);
  const pro = newProfessional("Electrician", "Nepalgunj");
  const professional = await actor({ viewport: PHONE, locale: "ne-NP" });
  await signUpProfessional(professional, pro, admin);
  await professional.auth.professionalSignIn(pro.email, pro.password);
  const p = professional.page;
  const l = professional.locale;
  const sections = p.getByRole("navigation", { name: say(l, m.dash_sections) });
  const heading = (message: PlainMessage) => p.getByRole("heading", { name: say(l, message) });

  await expect(heading(m.label_bookings)).toBeInViewport();
  const height = await p.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThanOrEqual(MAX_PAGE_PX);

  const taps = [
    [m.dash_tab_hours, "hours", m.hours_title],
    [m.dash_tab_alerts, "alerts", m.nav_notifications],
    [m.label_location, "location", m.live_heading],
    [m.label_jobs, "jobs", m.label_jobs],
    [m.dash_tab_requests, "requests", m.label_bookings],
  ] as const;
  for (const [tab, section, title] of taps) {
    await p.evaluate(() => window.scrollTo(0, 0));
    await sections.getByRole("link", { name: say(l, tab) }).click();
    await expect(p).toHaveURL(new RegExp(`section=${section}`));
    await expect(heading(title).first()).toBeInViewport();
    const tall = await p.evaluate(() => document.documentElement.scrollHeight);
    expect(tall, `${section}: page height`).toBeLessThanOrEqual(MAX_PAGE_PX);
  }
  await p.screenshot({ path: "e2e/screenshots/dashboard-sections-requests-360.png" });

  // a link opens one section
  await p.goto("/professional-dashboard?section=location");
  await expect(heading(m.live_heading)).toBeInViewport();
  await expect(sections.getByRole("link", { name: say(l, m.label_location) })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // the header's bell opens the notifications
  await p
    .getByRole("banner")
    .getByRole("link", { name: new RegExp(`^${say(l, m.nav_notifications)}`) })
    .click();
  await expect(p).toHaveURL(/section=alerts/);
  await expect(heading(m.nav_notifications)).toBeInViewport();
  await p.screenshot({ path: "e2e/screenshots/dashboard-sections-alerts-360.png" });
});
