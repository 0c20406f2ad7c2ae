import { Suspense, useEffect, useState, type ComponentType } from "react";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { CITIES, SpecialtySlug } from "@convex/constants";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import type { BookActionProps } from "@/lib/booking-intent";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { GEOLOCATION_OPTIONS } from "@/lib/map-constants";

// The cards are not on the first paint: until professionals:search answers over the WebSocket the
// list is its loading state, so their chunk (and the route's Book) loads after the page has painted.
const loadCards = () => import("@/features/search/professional-cards");
const ProfessionalCards = lazyWhenOnline(() =>
  loadCards().then((module) => ({ default: module.ProfessionalCards })),
);

type Props = {
  specialty: SpecialtySlug;
  city: (typeof CITIES)[number];
  category: string;
  /** A professional left out of the list: the one who declined the customer's request. */
  without?: string;
  /** Book, or why not (the bookings feature, composed in by the route). */
  BookAction: ComponentType<BookActionProps>;
  /** Called once the list has its first result (the page then lets the map below it load). */
  onSettled?: () => void;
};

export function ProfessionalsList({
  specialty,
  city,
  category,
  without,
  BookAction,
  onSettled,
}: Props) {
  const [near, setNear] = useState<{ lat: number; lng: number } | null>(null);
  const [locating, setLocating] = useState(false);
  const found = useQuery(api.professionals.search, {
    specialty,
    city: city.slug,
    ...(near ? { near } : {}),
  });
  const pros = found?.filter((p) => p._id !== without);
  const settled = found !== undefined;
  useEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);
  useEffect(() => void loadCards(), []);

  function locate() {
    if (!("geolocation" in navigator)) {
      toast.error(m.pl_no_geolocation());
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setNear({ lat: pos.coords.latitude, lng: pos.coords.longitude });
        setLocating(false);
      },
      () => {
        toast.error(m.pl_location_failed());
        setLocating(false);
      },
      GEOLOCATION_OPTIONS,
    );
  }

  return (
    <div className="mt-3">
      <div className="flex items-center justify-between gap-2 text-sm text-slate-600">
        <span className="min-w-0">{m.pl_order_hint()}</span>
        {!near && (
          <Button variant="secondary" size="sm" onClick={locate} disabled={locating}>
            {locating ? m.pl_locating() : m.pl_show_distance()}
          </Button>
        )}
      </div>
      {pros === undefined ? (
        <LoadingState label={m.pl_loading()} />
      ) : pros.length === 0 ? (
        <div className="mt-3">
          <EmptyState
            title={
              found?.length
                ? m.pl_empty_other({ city: localCityName(city.slug) })
                : m.pl_empty({ city: localCityName(city.slug) })
            }
          >
            {m.pl_empty_hint()}
          </EmptyState>
        </div>
      ) : (
        <Suspense fallback={<LoadingState label={m.pl_loading()} />}>
          <ProfessionalCards pros={pros} category={category} BookAction={BookAction} />
        </Suspense>
      )}
    </div>
  );
}
