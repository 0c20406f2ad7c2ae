import { useState } from "react";
import { insideNepal, roundPin, type Pin } from "@convex/rules/pin";
import { MarkersMap } from "@/components/map/markers-map";
import { Button } from "@/components/ui/button";
import { formatDigits } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";

/**
 * Where the job is: the customer taps the map (or uses the phone's position) to drop a pin. A pin
 * outside Nepal is refused here with the server's rule (rules/pin.ts), before anything is sent.
 */
export function PinPicker({
  value,
  onChange,
  center,
  heightPx = 220,
}: {
  value: Pin | null;
  onChange: (pin: Pin | null) => void;
  /** Where the map opens without a pin: the booking's city. */
  center: Pin;
  heightPx?: number;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const pick = (at: Pin) => {
    if (!insideNepal(at)) {
      setProblem(m.pin_outside_nepal());
      return;
    }
    setProblem(null);
    onChange(roundPin(at));
  };
  const locate = () => {
    if (!navigator.geolocation) {
      setProblem(m.pin_no_location());
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setLocating(false);
        pick({ lat: p.coords.latitude, lng: p.coords.longitude });
      },
      () => {
        setLocating(false);
        setProblem(m.pin_no_location());
      },
      { enableHighAccuracy: true, timeout: 15_000 },
    );
  };
  const at = value ?? center;
  return (
    <div>
      <MarkersMap
        center={[at.lat, at.lng]}
        zoom={value ? 16 : 13}
        heightPx={heightPx}
        markers={
          value ? [{ id: "pin", lat: value.lat, lng: value.lng, label: m.pin_marker() }] : []
        }
        ariaLabel={m.pin_map_label()}
        onPick={pick}
      />
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
        <p role="status" className="text-slate-600" data-testid="pin-status">
          {value
            ? m.pin_set({
                lat: formatDigits(value.lat.toFixed(5)),
                lng: formatDigits(value.lng.toFixed(5)),
              })
            : m.pin_hint()}
        </p>
        <div className="flex gap-2">
          <Button size="sm" variant="secondary" onClick={locate} disabled={locating}>
            {locating ? m.pin_locating() : m.pin_use_location()}
          </Button>
          {value && (
            <Button size="sm" variant="secondary" onClick={() => onChange(null)}>
              {m.pin_clear()}
            </Button>
          )}
        </div>
      </div>
      {problem && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {problem}
        </p>
      )}
    </div>
  );
}
