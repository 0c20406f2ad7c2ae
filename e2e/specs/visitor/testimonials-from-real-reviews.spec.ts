import { expect, test } from "../../fixtures";
import { LANGUAGES, m, say } from "../../i18n";

/*
 * The landing page quotes real customers: the newest five-star reviews with words (the demo has
 * some), signed with first name and initial, specialty and city — never "Client 1".
 */
for (const locale of LANGUAGES) {
  test(`the landing quotes real five-star reviews, signed by who and where (${locale}, 360 px)`, async ({
    actor,
  }) => {
    const visitor = await actor({ viewport: { width: 360, height: 740 }, locale });
    await visitor.page.goto("/");
    const section = visitor.page.getByRole("region", {
      name: say(locale, m.testimonials_title),
    });
    const quotes = section.getByRole("listitem");
    await expect(quotes).toHaveCount(3);
    await expect(section).not.toContainText(say(locale, m.testimonial_client, { number: "1" }));
    await expect(section).not.toContainText(say(locale, m.testimonial_1));
    // "Sita S. · Electrician, Nepalgunj": a first name and initial, then where
    const city = locale === "en" ? /, [A-Z][a-z]+$/ : /, [\u0900-\u097F ]+$/;
    for (const quote of await quotes.all()) {
      await expect(quote.getByRole("paragraph")).toHaveText(/^\S+( \S\.)? · .+/);
      await expect(quote.getByRole("paragraph")).toHaveText(city);
    }
    await section.scrollIntoViewIfNeeded();
    await visitor.page.screenshot({ path: `e2e/screenshots/testimonials-${locale}-360.png` });
  });
}
