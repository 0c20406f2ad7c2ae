import type { ReactNode } from "react";
import { Link } from "@/components/link";
import { buttonClasses } from "@/components/ui/button";
import { paths } from "@/lib/paths";
import { SITE_LINKS } from "@/lib/site-links";
import { m } from "@/i18n/paraglide/messages";

/** The landing hero; its action area depends on the role (spec §2). */
export function Hero({ children }: { children: ReactNode }) {
  return (
    <section className="bg-gradient-to-br from-brand-700 via-brand-600 to-brand-500 text-white">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:py-20">
        <h1 className="text-4xl font-bold tracking-tight sm:text-6xl">{m.hero_title()}</h1>
        <p className="mt-3 max-w-xl text-lg text-brand-50 sm:text-xl">{m.hero_tagline()}</p>
        <div className="mt-8">{children}</div>
        <nav aria-label={m.hero_nav()} className="mt-6 flex flex-wrap gap-x-6 text-sm font-medium">
          {SITE_LINKS.map(({ to, label }) => (
            <Link
              key={to}
              to={to}
              className="inline-flex min-h-11 min-w-11 items-center justify-center underline-offset-4 hover:underline"
            >
              {label()}
            </Link>
          ))}
        </nav>
      </div>
    </section>
  );
}

export function GetStarted() {
  return (
    <Link
      to={paths.signup()}
      className={buttonClasses("secondary", "md", "border-0 px-6 text-brand-800")}
    >
      {m.hero_get_started()}
    </Link>
  );
}
