import { Suspense, useEffect, type ReactNode } from "react";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { useConvexAuth, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { visitorAuth } from "@/lib/visitor-auth";
import { LoadingState } from "@/components/ui/states";
import { GetStarted, Hero } from "@/features/landing/hero";
import { SponsorBlock, TestimonialsSection, TestingBanner } from "@/features/landing/sections";

// What signed-in customers and professionals see instead of the landing (the search form with the
// catalogue's names, the welcome) loads while their profile does, not with the visitors' landing.
const loadSignedInHome = () => import("@/features/landing/signed-in-home");
const SignedInHome = lazyWhenOnline(loadSignedInHome);

/** `/` by role (spec §2): customers get the search hero and services, professionals a welcome, visitors the landing. */
export function HomePage({ servicesGrid }: { servicesGrid: ReactNode }) {
  const { isLoading, isAuthenticated } = visitorAuth(useConvexAuth());
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  useEffect(() => {
    if (isAuthenticated) void loadSignedInHome();
  }, [isAuthenticated]);
  if (isLoading || (isAuthenticated && viewer === undefined)) return <LoadingState />;

  if (viewer?.role === "customer" || viewer?.role === "professional") {
    return (
      <Suspense fallback={<LoadingState />}>
        <SignedInHome role={viewer.role} servicesGrid={servicesGrid} />
      </Suspense>
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
