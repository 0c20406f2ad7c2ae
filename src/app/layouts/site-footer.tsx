import { Link, Outlet } from "react-router-dom";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { SITE_LINKS } from "@/lib/paths";

/** Layout route for the public pages: the page, then the site footer at the bottom of the screen. */
export function WithFooter() {
  return (
    <div className="flex flex-1 flex-col">
      <Outlet />
      <SiteFooter />
    </div>
  );
}

/** Footer: the 2081 BS copyright line and the hotline (plain text, spec §2). */
export function SiteFooter() {
  return (
    <footer className="mt-auto border-t border-slate-200 bg-slate-900 text-slate-300">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p>© 2081 GharSewa Pvt. Ltd. All rights reserved.</p>
        <nav aria-label="Footer" className="flex gap-4">
          {SITE_LINKS.map(({ to, label }) => (
            <Link key={to} to={to} className="hover:text-white">
              {label}
            </Link>
          ))}
        </nav>
        <ErrorBoundary fallback={() => <p>Hotline support: unavailable</p>}>
          <Hotline />
        </ErrorBoundary>
      </div>
    </footer>
  );
}

function Hotline() {
  const settings = useQuery(api.settings.get);
  return <p>Hotline support: {settings ? settings.hotline : "…"}</p>;
}
