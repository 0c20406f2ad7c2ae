import { useEffect, useRef, type ReactNode } from "react";
import { Link } from "@/components/link";
import * as Popover from "@radix-ui/react-popover";
import { cityName } from "@convex/constants";
import { PopoverPanel } from "@/components/ui/popover-panel";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryName } from "@/i18n/categories";
import { categoryCardClass } from "@/features/catalog/category-card";

/**
 * A category card with its popover of '{service} in {city}' links. Loaded apart from the grid, which
 * shows plain cards until this module arrives: `openAtMount` opens the card pressed meanwhile, and
 * `focusAtMount` keeps the focus on the card that had it.
 */
export function CategoryPopover({
  category,
  face,
  openAtMount,
  focusAtMount,
}: {
  category: { slug: string; name: string; cities: string[] };
  face: ReactNode;
  openAtMount: boolean;
  focusAtMount: boolean;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Both only ever turn false after mount (the plain card they describe is gone by then).
    if (focusAtMount && !openAtMount) trigger.current?.focus();
  }, [focusAtMount, openAtMount]);
  const name = localCategoryName(category.slug, category.name);
  return (
    <Popover.Root defaultOpen={openAtMount}>
      <Popover.Trigger asChild>
        <button ref={trigger} type="button" className={categoryCardClass}>
          {face}
        </button>
      </Popover.Trigger>
      <PopoverPanel align="start" className="w-64 p-2">
        <p className="px-2 pb-1 text-xs font-medium text-slate-500 uppercase">
          {m.grid_choose_city()}
        </p>
        {category.cities.length === 0 && (
          <p className="px-2 py-2 text-sm text-slate-700">{m.grid_no_pros_hint()}</p>
        )}
        <ul>
          {category.cities.map((slug) => (
            <li key={slug}>
              <Link
                to={paths.serviceSearch(category.name, cityName(slug))}
                className="block rounded-lg px-2 py-2 text-sm text-slate-800 hover:bg-brand-50 focus-visible:bg-brand-50 focus-visible:outline-none"
              >
                {m.grid_link({ service: name, city: localCityName(slug) })}
              </Link>
            </li>
          ))}
        </ul>
        <Popover.Arrow className="fill-white" />
      </PopoverPanel>
    </Popover.Root>
  );
}
