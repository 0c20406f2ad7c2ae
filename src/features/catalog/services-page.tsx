import { Link } from "react-router-dom";
import { ServicesGrid } from "@/features/catalog/services-grid";
import { paths } from "@/lib/paths";

export default function ServicesPage() {
  return (
    <div className="flex flex-1 flex-col">
      <main className="w-full">
        <ServicesGrid />
        <p className="mx-auto max-w-6xl px-4 pb-10 text-sm text-slate-600">
          Tiles or marble? See the{" "}
          <Link to={paths.tileMarble()} className="text-brand-700 underline">
            tile and marble price list
          </Link>
          .
        </p>
      </main>
    </div>
  );
}
