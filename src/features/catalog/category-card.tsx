import type { ReactNode } from "react";

/** The category card's button: the same look before and after the popover's code has loaded. */
export const categoryCardClass =
  "group flex h-full w-full flex-col rounded-xl border border-slate-200 bg-white p-4 text-left shadow-sm transition hover:border-brand-500 hover:shadow-md focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=open]:border-brand-600";

export function CategoryCardFace({
  name,
  description,
  cities,
}: {
  name: ReactNode;
  description: ReactNode;
  cities: ReactNode;
}) {
  return (
    <>
      <span className="flex items-center justify-between gap-2">
        <span className="text-lg font-semibold text-slate-900">{name}</span>
        <span
          aria-hidden="true"
          className="text-brand-600 transition group-data-[state=open]:rotate-90"
        >
          ›
        </span>
      </span>
      <span className="mt-1 text-sm text-slate-600">{description}</span>
      <span className="mt-3 text-xs text-slate-500">{cities}</span>
    </>
  );
}
