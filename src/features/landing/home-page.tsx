import { Suspense, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { useConvexAuth, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { buttonClasses } from "@/components/ui/button";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { LoadingState } from "@/components/ui/states";
import { GetStarted, Hero, HeroSearch } from "@/features/landing/hero";
import { SponsorBlock, TestimonialsSection, TestingBanner } from "@/features/landing/sections";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

/** `/` by role (spec §2): customers get the search hero and services, professionals a welcome, visitors the landing. */
export function HomePage({ servicesGrid }: { servicesGrid: ReactNode }) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  if (isLoading || (isAuthenticated && viewer === undefined)) return <LoadingState />;

  if (viewer?.role === "customer") {
    return (
      <div className="flex flex-1 flex-col">
        <Hero>
          <HeroSearch />
        </Hero>
        <Suspense fallback={<LoadingState label={m.home_loading_services()} />}>
          {servicesGrid}
        </Suspense>
      </div>
    );
  }

  if (viewer?.role === "professional") {
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

  return (
    <div className="flex flex-1 flex-col">
      <ErrorBoundary fallback={() => null}>
        <TestingBanner />
      </ErrorBoundary>
      <Hero>
        <GetStarted />
      </Hero>
      <SponsorBlock />
      <TestimonialsSection />
    </div>
  );
}
