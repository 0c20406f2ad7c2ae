import { Link } from "@/components/link";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { formatNrs } from "@/lib/rupees";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";
import { localServiceName } from "@/i18n/services";

export default function TileMarblePage() {
  return (
    <div className="flex flex-1 flex-col">
      <main className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-10 md:grid-cols-[18rem_1fr]">
        <aside
          aria-labelledby="tile-list-heading"
          className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
        >
          <h2 id="tile-list-heading" className="font-semibold text-slate-900">
            {m.tm_list_heading()}
          </h2>
          <ErrorBoundary fallback={() => <ErrorState title={m.tm_list_failed()} />}>
            <PriceList />
          </ErrorBoundary>
        </aside>
        <section>
          <h1 className="text-3xl font-bold">{m.tm_title()}</h1>
          <p className="mt-3 text-slate-700">{m.tm_text()}</p>
          <p className="mt-3 text-slate-700">
            <Link to={paths.contact()} className="font-medium text-brand-700 underline">
              {m.tm_contact()}
            </Link>
          </p>
        </section>
      </main>
    </div>
  );
}

function PriceList() {
  const items = useQuery(api.catalog.tileMarble);
  if (items === undefined) return <LoadingState />;
  if (items.length === 0) return <EmptyState title={m.tm_empty()} />;
  return (
    <ul className="mt-3 divide-y divide-slate-100">
      {items.map((s) => (
        <li key={s.name} className="flex justify-between gap-3 py-2 text-sm">
          <span>{localServiceName(s.name)}</span>
          <span className="text-right font-medium">
            {formatNrs(s.price)}
            {s.price === 0 && (
              <span className="block text-xs font-normal text-slate-600">
                {m.tm_on_inspection()}
              </span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
