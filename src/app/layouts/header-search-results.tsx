import { useEffect } from "react";
import { useConvexAuth, useQuery } from "convex/react";
import { useNavigate } from "react-router-dom";
import { api } from "@convex/_generated/api";
import { SearchList, SearchNote, type SearchKeysRef } from "@/app/layouts/search-list";
import { paths } from "@/lib/paths";
import { searchCity, useNearestCity } from "@/lib/search-options";
import { cityName } from "@convex/constants";
import { localCityName } from "@/i18n/places";
import { m } from "@/i18n/paraglide/messages";
import { localCategoryName } from "@/i18n/categories";
import { localServiceName } from "@/i18n/services";

type Result = {
  category: string;
  categoryName: string;
  serviceName: string | null;
  city: string | null;
};

/**
 * The header search's results for `query` (catalog:search, live); it handles the input's arrows and
 * Enter through `keysRef` and shows the listbox while `open`. Loaded on first use (header-search.tsx).
 */
export default function HeaderSearchResults({
  listId,
  query,
  open,
  active,
  keysRef,
  onActive,
  onOpen,
  onChosen,
}: {
  listId: string;
  query: string;
  open: boolean;
  active: number;
  keysRef: SearchKeysRef;
  onActive: (update: (active: number) => number) => void;
  onOpen: () => void;
  onChosen: () => void;
}) {
  const navigate = useNavigate();
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const results = useQuery(api.catalog.search, { text: query });
  const nearest = useNearestCity();

  function choose(result: Result) {
    onChosen();
    const city = result.city ? cityName(result.city) : searchCity(viewer ?? null, nearest);
    navigate(paths.serviceSearch(result.categoryName, city, result.serviceName ?? undefined));
  }

  useEffect(() => {
    keysRef.current = (e) => {
      const count = results?.length ?? 0;
      if (e.key === "ArrowDown" && count) {
        e.preventDefault();
        onOpen();
        onActive((a) => (a + 1) % count);
      } else if (e.key === "ArrowUp" && count) {
        e.preventDefault();
        onActive((a) => (a <= 0 ? count - 1 : a - 1));
      } else if (e.key === "Enter" && results && count) {
        e.preventDefault();
        choose(results[Math.max(active, 0)]);
      }
    };
    return () => {
      keysRef.current = null;
    };
  });

  if (!open) return null;
  if (results === undefined) return <SearchNote id={listId}>{m.search_searching()}</SearchNote>;
  if (results.length === 0)
    return <SearchNote id={listId}>{m.search_no_match({ query })}</SearchNote>;
  return (
    <SearchList id={listId}>
      {results.map((r, i) => (
        <li
          key={`${r.category}/${r.serviceName}`}
          id={`${listId}-${i}`}
          role="option"
          aria-selected={i === active}
          // mousedown, not click: the input's blur would close the list first
          onMouseDown={(e) => {
            e.preventDefault();
            choose(r);
          }}
          className={`cursor-pointer px-3 py-2 ${i === active ? "bg-brand-50" : "hover:bg-slate-50"}`}
        >
          <span className="block font-medium text-slate-800">
            {r.serviceName === null
              ? localCategoryName(r.category, r.categoryName)
              : localServiceName(r.serviceName)}
          </span>
          <span className="block text-xs text-slate-500">
            {r.city === null
              ? localCategoryName(r.category, r.categoryName)
              : r.serviceName === null
                ? localCityName(r.city)
                : `${localCategoryName(r.category, r.categoryName)} · ${localCityName(r.city)}`}
          </span>
        </li>
      ))}
    </SearchList>
  );
}
