import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
// A file, not a data URL in the landing's JS.
import sponsorLogo from "@/assets/sponsor-logo.svg?no-inline";
import { Marquee } from "@/components/marquee";
import { StarRating } from "@/components/ui/star-rating";
import { SPONSOR } from "@/content/sponsor";
import { TESTIMONIALS } from "@/content/testimonials";
import { BANNER_SPEED } from "@/lib/constants";
import { m } from "@/i18n/paraglide/messages";
import { useLocale } from "@/i18n/locale";
import { formatNumber } from "@/lib/numbers";
import { localCityName } from "@/i18n/places";
import { localLandingService } from "@/i18n/categories";

/** The testing-phase banner; its text, one per language, is an admin setting. */
export function TestingBanner() {
  const settings = useQuery(api.settings.get);
  const nepali = useLocale() === "ne-NP";
  return (
    <div
      className="min-h-10 bg-accent-500 py-2 text-sm font-medium text-slate-900"
      aria-label={m.banner_label()}
    >
      {settings && (
        <Marquee speedPxPerSec={BANNER_SPEED}>
          {nepali ? settings.bannerTextNe : settings.bannerText}
        </Marquee>
      )}
    </div>
  );
}

export function SponsorBlock() {
  return (
    <section aria-labelledby="sponsor-heading" className="border-y border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-6 sm:flex-row">
        <div className="shrink-0 text-center sm:text-left">
          <h2
            id="sponsor-heading"
            className="text-xs font-semibold tracking-wide text-slate-500 uppercase"
          >
            {m.sponsor_label()}
          </h2>
          <a
            href={SPONSOR.url}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-1 inline-block rounded focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <img
              src={sponsorLogo}
              alt={m.sponsor_logo_alt({ name: SPONSOR.name })}
              width={180}
              height={48}
              className="h-12 w-auto"
            />
          </a>
        </div>
        <Marquee
          speedPxPerSec={BANNER_SPEED}
          lang="ne-NP"
          className="w-full rounded-lg bg-blue-50 py-2 text-blue-900"
        >
          {SPONSOR.promotion}
        </Marquee>
      </div>
    </section>
  );
}

/**
 * What customers say: the newest real five-star reviews with words (reviews:testimonials), signed
 * with first name, specialty and city; the page's own three until there are some.
 */
export function TestimonialsSection() {
  const real = useQuery(api.reviews.testimonials);
  return (
    <section aria-labelledby="testimonials-heading" className="mx-auto max-w-6xl px-4 py-12">
      <h2 id="testimonials-heading" className="text-center text-2xl font-bold sm:text-3xl">
        {m.testimonials_title()}
      </h2>
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {real && real.length > 0
          ? real.map((t) => (
              <Testimonial
                key={t._id}
                words={t.comment}
                own
                by={m.testimonial_by({
                  name: t.customerName,
                  specialty: localLandingService(t.specialty),
                  city: localCityName(t.city),
                })}
              />
            ))
          : TESTIMONIALS.map((t) => (
              <Testimonial
                key={t.number}
                words={t.message()}
                by={m.testimonial_client({ number: formatNumber(t.number) })}
              />
            ))}
      </ul>
    </section>
  );
}

/** `own`: a customer's own words, in the language they wrote them, not translated. */
function Testimonial({ words, by, own = false }: { words: string; by: string; own?: boolean }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <StarRating value={5} />
      <blockquote className="mt-3 break-words text-slate-700" translate={own ? "no" : undefined}>
        “{words}”
      </blockquote>
      <p className="mt-3 font-semibold text-slate-900">{by}</p>
    </li>
  );
}
