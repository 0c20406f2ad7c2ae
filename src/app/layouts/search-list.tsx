import type { KeyboardEvent, ReactNode, RefObject } from "react";
import { m } from "@/i18n/paraglide/messages";

/** What the results part does with the input's keys (arrows, Enter); set while it is mounted. */
export type SearchKeysRef = RefObject<((e: KeyboardEvent<HTMLInputElement>) => void) | null>;

/** The listbox under the input; `children` are its options or one note. */
export function SearchList({ id, children }: { id: string; children: ReactNode }) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label={m.search_results()}
      className="absolute z-[1100] mt-1 max-h-80 w-full min-w-64 overflow-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
    >
      {children}
    </ul>
  );
}

/** The list holding one line that is not a result (searching, no match). */
export function SearchNote({ id, children }: { id: string; children: string }) {
  return (
    <SearchList id={id}>
      <li role="presentation" className="px-3 py-2 text-slate-500">
        {children}
      </li>
    </SearchList>
  );
}
