import type { ComponentType } from "react";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { Link } from "@/components/link";
import { Avatar } from "@/components/avatar";
import { Badge } from "@/components/ui/badge";
import { StarRating } from "@/components/ui/star-rating";
import type { BookActionProps } from "@/lib/booking-intent";
import { formatNumber } from "@/lib/numbers";
import { formatNrs } from "@/lib/rupees";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localCategoryName } from "@/i18n/categories";
import { paths } from "@/lib/paths";

/** "4.8 (23)" in the reader's digits, or "No reviews yet". */
function ratingShort({ average, count }: { average: number; count: number }): string {
  if (!count) return m.rating_none();
  return m.rating_short({
    average: formatNumber(Math.round(average * 10) / 10),
    count: formatNumber(count),
  });
}

/** The search's professionals as cards, each with Book (ProfessionalsList, loaded after the first paint). */
export function ProfessionalCards({
  pros,
  category,
  BookAction,
}: {
  pros: FunctionReturnType<typeof api.professionals.search>;
  category: string;
  BookAction: ComponentType<BookActionProps>;
}) {
  return (
    <ul className="mt-3 grid grid-cols-1 gap-3 md:grid-cols-2">
      {pros.map((p) => (
        <li
          key={p._id}
          className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        >
          <Avatar src={p.photoUrl} name={p.name} size={56} />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-semibold break-words">
                <Link
                  to={paths.professionalProfile(p._id)}
                  className="hover:text-brand-700 hover:underline"
                >
                  {p.name}
                </Link>
              </h3>
              {p.verified ? (
                <Badge tone="success">✓ {m.badge_verified()}</Badge>
              ) : (
                <Badge>{m.badge_unverified()}</Badge>
              )}
              {!p.available && <Badge tone="warning">{m.badge_unavailable()}</Badge>}
            </div>
            <p className="text-sm text-slate-600">
              {localCategoryName(p.specialty, p.specialtyName)} · {localCityName(p.city)}
            </p>
            <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
              <StarRating value={p.rating.average} />
              <span>{ratingShort(p.rating)}</span>
            </p>
            {/* Book shares the price's row: beside the details it squeezed Nepali names, below
                  them it pushed the first Book off a phone's first screen */}
            <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm text-slate-700">
                {p.priceFrom !== undefined && p.priceFrom !== null && (
                  <span className="font-medium">
                    {m.pl_price_from({ price: formatNrs(p.priceFrom) })}
                  </span>
                )}
                {typeof p.distanceKm === "number" && (
                  <span className="text-slate-500">
                    {" · "}
                    {m.pl_distance({ km: formatNumber(Math.round(p.distanceKm * 10) / 10) })}
                  </span>
                )}
              </p>
              <div className="ml-auto">
                <BookAction professional={p} category={category} />
              </div>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
