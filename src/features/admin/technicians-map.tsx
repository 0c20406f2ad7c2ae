import { useQuery } from "convex/react";
import { Suspense } from "react";
import { LazyMarkersMap } from "@/components/map/lazy-markers-map";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CITIES, type CitySlug, type SpecialtySlug } from "@convex/constants";
import { useRoundedPositions, type OnMap } from "@/lib/use-rounded-positions";
import { ADMIN_MAP } from "@/lib/map-constants";
import { OnlineCount } from "@/components/map/online-count";
import { m } from "@/i18n/paraglide/messages";
import { localLandingService } from "@/i18n/categories";

type Props = {
  city?: CitySlug;
  specialty?: SpecialtySlug;
  onOpen: (professionalId: Id<"professionals">) => void;
};

/**
 * Who is online now, where (rounded to ~500 m, as on the public map: exact positions are only for the
 * customer of an active booking), for the grid's city and specialty. Live: the same shared queries as
 * the public map, so a professional who signs out leaves it at once.
 */
export function TechniciansMap({ city, specialty, onOpen }: Props) {
  const listed = useQuery(api.locations.onMap, {
    ...(city ? { city } : {}),
    ...(specialty ? { specialty } : {}),
  });
  return (
    <section aria-labelledby="technicians-map-title" className="mt-4">
      <h2 id="technicians-map-title" className="text-base font-semibold text-slate-800">
        {m.admin_map_title()}
      </h2>
      <div className="mt-2">
        {listed === undefined ? (
          <MapPlace />
        ) : (
          <Suspense fallback={<MapPlace />}>
            <OnlineMarkers listed={listed} city={city} onOpen={onOpen} />
          </Suspense>
        )}
      </div>
      <OnlineCount
        count={listed?.length}
        one={m.admin_map_online_one}
        many={m.admin_map_online_many}
      />
    </section>
  );
}

function MapPlace() {
  return (
    <div
      role="region"
      aria-label={m.admin_map_label()}
      aria-busy
      className="flex items-center justify-center rounded-lg bg-slate-200 text-sm text-slate-600"
      style={{ height: ADMIN_MAP.heightPx }}
    >
      {m.state_loading_map()}
    </div>
  );
}

function OnlineMarkers({ listed, city, onOpen }: { listed: OnMap } & Omit<Props, "specialty">) {
  const positions = useRoundedPositions(listed);
  const place = CITIES.find((c) => c.slug === city);
  const markers = listed.flatMap((p) => {
    const at = positions.get(p.professionalId);
    if (at === undefined) return [];
    return [
      {
        id: p.professionalId,
        lat: at.lat,
        lng: at.lng,
        exact: false,
        label: `${p.name} · ${localLandingService(p.specialtyName)}`,
        action: (
          <button
            type="button"
            className="text-brand-700 underline"
            onClick={() => onOpen(p.professionalId)}
          >
            {m.admin_map_open_card()}
          </button>
        ),
      },
    ];
  });
  return (
    <LazyMarkersMap
      center={place ? [place.lat, place.lng] : ADMIN_MAP.center}
      zoom={place ? ADMIN_MAP.cityZoom : ADMIN_MAP.zoom}
      heightPx={ADMIN_MAP.heightPx}
      markers={markers}
      fitToMarkers
      ariaLabel={m.admin_map_label()}
    />
  );
}
