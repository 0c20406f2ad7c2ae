import { useEffect, useId, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useConvexAuth, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { paths } from "@/lib/paths";
import { searchCity } from "@/lib/search-options";
import { m } from "@/i18n/paraglide/messages";
import { localCategoryName, localServiceName } from "@/i18n/services";

const MIN_CHARS = 2;
const DEBOUNCE_MS = 200;

type Result = { category: string; categoryName: string; serviceName: string };

/** The header's service search: a combobox over catalog:search; choosing a result opens the search page. */
export function HeaderSearch({
  onNavigate,
  className = "",
}: {
  onNavigate?: () => void;
  className?: string;
}) {
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");

  // One subscription per pause in typing, not per keystroke.
  useEffect(() => {
    const t = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const results = useQuery(
    api.catalog.search,
    query.length >= MIN_CHARS ? { text: query } : "skip",
  );
  const showList = open && query.length >= MIN_CHARS;

  function choose(result: Result) {
    setOpen(false);
    setText("");
    setQuery("");
    onNavigate?.();
    navigate(
      paths.serviceSearch(result.categoryName, searchCity(viewer ?? null), result.serviceName),
    );
  }

  return (
    <div className={`relative ${className}`}>
      <label htmlFor={`${listId}-input`} className="sr-only">
        {m.search_label()}
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder={m.search_placeholder()}
        autoComplete="off"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          const count = results?.length ?? 0;
          if (e.key === "ArrowDown" && count) {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (a + 1) % count);
          } else if (e.key === "ArrowUp" && count) {
            e.preventDefault();
            setActive((a) => (a <= 0 ? count - 1 : a - 1));
          } else if (e.key === "Enter" && results && count) {
            e.preventDefault();
            choose(results[Math.max(active, 0)]);
          } else if (e.key === "Escape") {
            setOpen(false);
          }
        }}
        className="w-full rounded-full border border-slate-300 bg-slate-50 py-2 pr-3 pl-9 text-sm focus:bg-white focus:outline-2 focus:outline-brand-600"
      />
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 fill-slate-400"
      >
        <path d="M8.5 2a6.5 6.5 0 015.2 10.4l4 4-1.3 1.3-4-4A6.5 6.5 0 118.5 2zm0 2a4.5 4.5 0 100 9 4.5 4.5 0 000-9z" />
      </svg>
      {showList && (
        <ul
          id={listId}
          role="listbox"
          aria-label={m.search_results()}
          className="absolute z-[1100] mt-1 max-h-80 w-full min-w-64 overflow-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {results === undefined ? (
            <li role="presentation" className="px-3 py-2 text-slate-500">
              {m.search_searching()}
            </li>
          ) : results.length === 0 ? (
            <li role="presentation" className="px-3 py-2 text-slate-500">
              {m.search_no_match({ query })}
            </li>
          ) : (
            results.map((r, i) => (
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
                  {localServiceName(r.serviceName)}
                </span>
                <span className="block text-xs text-slate-500">
                  {localCategoryName(r.category, r.categoryName)}
                </span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
