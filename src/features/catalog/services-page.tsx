import { Link } from "@/components/link";
import { ServicesGrid } from "@/features/catalog/services-grid";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

export default function ServicesPage() {
  return (
    <div className="flex flex-1 flex-col">
      <main className="w-full">
        <ServicesGrid />
        <p className="mx-auto max-w-6xl px-4 pb-10 text-sm text-slate-600">
          {m.tm_see_before()}{" "}
          <Link to={paths.tileMarble()} className="text-brand-700 underline">
            {m.tm_see_link()}
          </Link>
          {m.tm_see_after()}
        </p>
      </main>
    </div>
  );
}
