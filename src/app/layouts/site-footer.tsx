import { useState } from "react";
import { Outlet } from "react-router-dom";
import { Link } from "@/components/link";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { SITE_LINKS } from "@/lib/site-links";
import { m } from "@/i18n/paraglide/messages";
import { formatDigits } from "@/lib/numbers";
import { bsYear } from "@/lib/bs-year";

/** Layout route for the public pages: the page, then the site footer at the bottom of the screen. */
export function WithFooter() {
  return (
    <div className="flex flex-1 flex-col">
      <Outlet />
      <SiteFooter />
    </div>
  );
}

/** Footer: the copyright line in this Bikram Sambat year and the hotline (plain text, spec §2). */
export function SiteFooter() {
  const [year] = useState(() => bsYear(Date.now()));
  return (
    <footer className="mt-auto border-t border-slate-200 bg-slate-900 text-slate-300">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p>{m.footer_copyright({ year: formatDigits(String(year)) })}</p>
        <nav aria-label={m.nav_footer()} className="flex flex-wrap gap-x-4">
          {SITE_LINKS.map(({ to, label }) => (
            <Link
              key={to}
              to={to}
              className="inline-flex min-h-11 min-w-11 items-center justify-center hover:text-white"
            >
              {label()}
            </Link>
          ))}
        </nav>
        <ErrorBoundary fallback={() => <p>{m.footer_hotline_unavailable()}</p>}>
          <Hotline />
        </ErrorBoundary>
      </div>
    </footer>
  );
}

function Hotline() {
  const settings = useQuery(api.settings.get);
  return <p>{m.footer_hotline({ number: settings ? formatDigits(settings.hotline) : "…" })}</p>;
}
