import { useEffect, useState } from "react";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { ErrorState, EmptyState, LoadingState } from "@/components/ui/states";
import { afterLoad } from "@/lib/after-load";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryDescription, localCategoryName } from "@/i18n/categories";
import { CategoryCardFace, categoryCardClass } from "@/features/catalog/category-card";

type PopoverModule = typeof import("@/features/catalog/category-popover");
let loading: Promise<PopoverModule> | undefined;
function loadPopover(): Promise<PopoverModule> {
  loading ??= import("@/features/catalog/category-popover").catch((error: unknown) => {
    loading = undefined; // the next press retries
    throw error;
  });
  return loading;
}

/**
 * 'Our Services': a card per category, each opening a popover of '{service} in {city}' links to the
 * cities where it has bookable professionals (a live query: a newly verified professional's city appears).
 */
export function ServicesGrid({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section aria-labelledby="our-services" className="mx-auto max-w-6xl px-4 py-8">
      <Heading id="our-services" className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {m.nav_services()}
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

/**
 * The cards paint without Radix's popover code (~20 KB, it held the largest paint on /services):
 * that loads once the page is idle, or on the first press of a card, which then opens.
 */
function Cards() {
  const categories = useQuery(api.catalog.categories);
  const [popover, setPopover] = useState<PopoverModule>();
  const [pressed, setPressed] = useState<string>();
  const [focused, setFocused] = useState<string>();
  useEffect(() => {
    let active = true;
    const cancel = afterLoad(() => {
      loadPopover().then(
        (module) => active && setPopover(module),
        () => {},
      );
    });
    return () => {
      active = false;
      cancel();
    };
  }, []);
  const press = (slug: string) => {
    setPressed(slug);
    loadPopover().then(setPopover, () => setPressed(undefined));
  };
  // At least a screen tall while loading: the cards then grow the page below the fold instead of
  // pushing the footer down inside it (Lighthouse measured a 0.23 layout shift on /services).
  if (categories === undefined)
    return (
      <div className="min-h-dvh">
        <LoadingState label={m.state_loading_services()} />
      </div>
    );
  if (categories.length === 0) return <EmptyState title={m.grid_empty()} />;
  return (
    <ul className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {categories.map((c) => {
        const face = (
          <CategoryCardFace
            name={localCategoryName(c.slug, c.name)}
            description={localCategoryDescription(c.slug, c.description)}
            cities={
              c.cities.length > 0
                ? c.cities.map((slug) => localCityName(slug)).join(" · ")
                : m.grid_no_pros()
            }
          />
        );
        return (
          <li key={c.slug}>
            {popover ? (
              <popover.CategoryPopover
                category={c}
                face={face}
                openAtMount={pressed === c.slug}
                focusAtMount={focused === c.slug}
              />
            ) : (
              // What Radix's trigger renders while closed.
              <button
                type="button"
                aria-haspopup="dialog"
                aria-expanded={false}
                data-state="closed"
                className={categoryCardClass}
                onClick={() => press(c.slug)}
                onFocus={() => setFocused(c.slug)}
                onBlur={() => setFocused(undefined)}
              >
                {face}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
