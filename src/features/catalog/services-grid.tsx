import { Link } from "react-router-dom";
import { useQuery } from "convex/react";
import * as Popover from "@radix-ui/react-popover";
import { api } from "@convex/_generated/api";
import { cityName } from "@convex/constants";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { PopoverPanel } from "@/components/ui/popover-panel";
import { ErrorState, EmptyState, LoadingState } from "@/components/ui/states";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryDescription, localCategoryName } from "@/i18n/services";

/** 'Our Services': the 13 category cards, each opening a popover of '{service} in {city}' links. */
export function ServicesGrid({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section aria-labelledby="our-services" className="mx-auto max-w-6xl px-4 py-8">
      <Heading id="our-services" className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {m.grid_title()}
      </Heading>
      <p className="mt-1 text-slate-600">{m.grid_hint()}</p>
      <ErrorBoundary
        fallback={(_, retry) => <ErrorState title={m.grid_failed()} onRetry={retry} />}
      >
        <Cards />
      </ErrorBoundary>
    </section>
  );
}

function Cards() {
  const categories = useQuery(api.catalog.categories);
  // At least a screen tall while loading: the cards then grow the page below the fold instead of
  // pushing the footer down inside it (Lighthouse measured a 0.23 layout shift on /services).
  if (categories === undefined)
    return (
      <div className="min-h-dvh">
        <LoadingState label={m.grid_loading()} />
      </div>
    );
  if (categories.length === 0) return <EmptyState title={m.grid_empty()} />;
  return (
    <ul className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {categories.map((c) => (
        <li key={c.slug}>
          <Popover.Root>
            <Popover.Trigger asChild>
              <button
                type="button"
                className="group flex h-full w-full flex-col rounded-xl border border-slate-200 bg-white p-4 text-left shadow-sm transition hover:border-brand-500 hover:shadow-md focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=open]:border-brand-600"
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="text-lg font-semibold text-slate-900">
                    {localCategoryName(c.slug, c.name)}
                  </span>
                  <span
                    aria-hidden="true"
                    className="text-brand-600 transition group-data-[state=open]:rotate-90"
                  >
                    ›
                  </span>
                </span>
                <span className="mt-1 text-sm text-slate-600">
                  {localCategoryDescription(c.slug, c.description)}
                </span>
                <span className="mt-3 text-xs text-slate-500">
                  {c.cities.map((slug) => localCityName(slug)).join(" · ")}
                </span>
              </button>
            </Popover.Trigger>
            <PopoverPanel align="start" className="w-64 p-2">
              <p className="px-2 pb-1 text-xs font-medium text-slate-500 uppercase">
                {m.grid_choose_city()}
              </p>
              <ul>
                {c.cities.map((slug) => (
                  <li key={slug}>
                    <Link
                      to={paths.serviceSearch(c.name, cityName(slug))}
                      className="block rounded-lg px-2 py-2 text-sm text-slate-800 hover:bg-brand-50 focus-visible:bg-brand-50 focus-visible:outline-none"
                    >
                      {m.grid_link({
                        service: localCategoryName(c.slug, c.name),
                        city: localCityName(slug),
                      })}
                    </Link>
                  </li>
                ))}
              </ul>
              <Popover.Arrow className="fill-white" />
            </PopoverPanel>
          </Popover.Root>
        </li>
      ))}
    </ul>
  );
}
