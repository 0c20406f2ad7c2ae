import { Suspense, type ReactNode } from "react";
import { Link } from "@/components/link";
import { buttonClasses } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import { Hero } from "@/features/landing/hero";
import { HeroSearch } from "@/features/landing/hero-search";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

/**
 * `/` for a signed-in customer (the search hero and the services) or professional (a welcome);
 * loaded while their profile is (home-page.tsx), not with the visitors' landing.
 */
export default function SignedInHome({
  role,
  servicesGrid,
}: {
  role: "customer" | "professional";
  servicesGrid: ReactNode;
}) {
  if (role === "customer") {
    return (
      <div className="flex flex-1 flex-col">
        <Hero>
          <HeroSearch />
        </Hero>
        <Suspense fallback={<LoadingState label={m.state_loading_services()} />}>
          {servicesGrid}
        </Suspense>
      </div>
    );
  }
  return (
    <div className="flex flex-1 flex-col">
      <Hero>
        <p className="text-2xl font-semibold">{m.home_welcome_professional()}</p>
        <Link
          to={paths.professionalDashboard()}
          className={buttonClasses("secondary", "md", "mt-4 border-0 text-brand-800")}
        >
          {m.home_open_dashboard()}
        </Link>
      </Hero>
      <section className="mx-auto max-w-6xl px-4 py-10">
        <h2 className="text-2xl font-bold">{m.home_welcome_professional_heading()}</h2>
        <p className="mt-2 text-slate-600">{m.home_professional_hint()}</p>
      </section>
    </div>
  );
}
