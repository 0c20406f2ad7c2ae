import { Suspense } from "react";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { CITIES, type CitySlug } from "@convex/constants";
import type { Pin } from "@convex/rules/pin";
import { LoadingState } from "@/components/ui/states";
import { m } from "@/i18n/paraglide/messages";

// Leaflet is fetched only when a booking form is open.
const PinPicker = lazyWhenOnline(() =>
  import("@/components/map/pin-picker").then((module) => ({ default: module.PinPicker })),
);

/** The city's centre: where the map opens before a pin is dropped. */
export function cityCentre(city: CitySlug): Pin {
  const c = CITIES.find((x) => x.slug === city) ?? CITIES[0];
  return { lat: c.lat, lng: c.lng };
}

/** A booking form's map pin beside the typed address. */
export function PinField({
  city,
  value,
  onChange,
  label = m.pin_label(),
}: {
  city: CitySlug;
  value: Pin | null;
  onChange: (pin: Pin | null) => void;
  label?: string;
}) {
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-slate-800">{label}</legend>
      <Suspense fallback={<LoadingState label={m.state_loading_map()} />}>
        <PinPicker value={value} onChange={onChange} center={cityCentre(city)} />
      </Suspense>
    </fieldset>
  );
}
