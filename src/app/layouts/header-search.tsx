import { Suspense, useEffect, useId, useRef, useState } from "react";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { afterLoad } from "@/lib/after-load";
import { m } from "@/i18n/paraglide/messages";
import { SearchNote, type SearchKeysRef } from "@/app/layouts/search-list";

const MIN_CHARS = 2;
const DEBOUNCE_MS = 200;

// The results (catalog:search, the catalogue's Nepali names, the city a result opens in) load when
// the search is first touched or after the page has loaded, not with it; the input is here, so what
// is typed before they arrive stays in it.
const loadResults = () => import("@/app/layouts/header-search-results");
const HeaderSearchResults = lazyWhenOnline(loadResults);

/** The header's service search: a combobox over catalog:search; choosing a result opens the search page. */
export function HeaderSearch({ className = "" }: { className?: string }) {
  const listId = useId();
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const keysRef: SearchKeysRef = useRef(null);

  // One subscription per pause in typing, not per keystroke.
  useEffect(() => {
    const t = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  useEffect(() => afterLoad(() => void loadResults()), []);

  const searching = query.length >= MIN_CHARS;
  const showList = open && searching;

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
        onPointerDown={() => void loadResults()}
        onFocus={() => {
          void loadResults();
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
          else keysRef.current?.(e);
        }}
        className="h-11 w-full rounded-full border border-slate-300 bg-slate-50 pr-3 pl-9 text-sm focus:bg-white focus:outline-2 focus:outline-brand-600"
      />
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="pointer-events-none absolute top-3.5 left-3 h-4 w-4 fill-slate-400"
      >
        <path d="M8.5 2a6.5 6.5 0 015.2 10.4l4 4-1.3 1.3-4-4A6.5 6.5 0 118.5 2zm0 2a4.5 4.5 0 100 9 4.5 4.5 0 000-9z" />
      </svg>
      {searching && (
        <Suspense
          fallback={showList && <SearchNote id={listId}>{m.search_searching()}</SearchNote>}
        >
          <HeaderSearchResults
            listId={listId}
            query={query}
            open={showList}
            active={active}
            keysRef={keysRef}
            onActive={setActive}
            onOpen={() => setOpen(true)}
            onChosen={() => {
              setOpen(false);
              setText("");
              setQuery("");
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
