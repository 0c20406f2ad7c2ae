import { useMutation } from "convex/react";
import { useCallback, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import { MarkersMap } from "@/components/map/markers-map";
import { InlineAlert } from "@/components/ui/states";
import { DASHBOARD_MAP } from "@/lib/constants";
import { errorMessage } from "@/lib/errors";
import { formatKathmanduTime } from "@/lib/format";
import { useLocationSharing, type Position } from "@/features/professional/use-location-sharing";
import { useWakeLock } from "@/features/professional/use-wake-lock";

export const MARKER_LABEL = "Technician's Current Location";

/** The professional's position: watched on the device, shared with the server (throttled), shown on a map. */
export function LiveLocation({ enRoute }: { enRoute: boolean }) {
  const update = useMutation(api.locations.update);
  const send = useCallback(
    async (p: Position) => {
      try {
        await update({ latitude: p.lat, longitude: p.lng, accuracy: p.accuracy });
      } catch (error) {
        throw new Error(errorMessage(error, "The server did not accept your position."), {
          cause: error,
        });
      }
    },
    [update],
  );
  const { geo, sent } = useLocationSharing(send);
  const wakeLock = useWakeLock(enRoute);

  return (
    <section
      aria-labelledby="location-heading"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="location-heading" className="text-lg font-semibold text-slate-900">
          Your live location
        </h2>
        <p className="text-xs text-slate-500" aria-live="polite">
          {sent.status === "sent" && `Position sent at ${formatKathmanduTime(sent.at)}`}
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Shared only while this page is open: browsers stop reporting positions when the tab is
        hidden or the phone locks.
      </p>
      {sent.status === "failed" && (
        <InlineAlert tone="error" className="mt-2">
          Your position could not be shared: {sent.message}
        </InlineAlert>
      )}
      {enRoute && wakeLock !== "off" && (
        <p className="mt-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-800">
          {wakeLock === "on"
            ? "You are on the way: the screen stays on so your position keeps updating."
            : "You are on the way: keep this page open and the screen on, or your position stops updating."}
        </p>
      )}
      <div className="mt-3">
        {geo.status === "unsupported" ? (
          <Explanation title="Location is not available in this browser.">
            Customers cannot see where you are. Open GharSewa in a current browser such as Chrome or
            Firefox on your phone to share your location.
          </Explanation>
        ) : geo.status === "denied" ? (
          <Explanation title="Location access is blocked.">
            Allow location for this site in your browser settings (the lock or site icon beside the
            address), then reload this page. Customers see your position only while you share it.
          </Explanation>
        ) : geo.status === "waiting" ? (
          <div
            className="flex w-full flex-col items-center justify-center gap-2 rounded-lg bg-slate-100 text-slate-600"
            style={{ height: DASHBOARD_MAP.heightPx }}
          >
            <p role="status">Loading map...</p>
            {geo.problem && <p className="px-4 text-center text-sm">{geo.problem}</p>}
          </div>
        ) : (
          <>
            <MarkersMap
              center={[geo.position.lat, geo.position.lng]}
              zoom={DASHBOARD_MAP.zoom}
              heightPx={DASHBOARD_MAP.heightPx}
              markers={[
                { id: "me", lat: geo.position.lat, lng: geo.position.lng, label: MARKER_LABEL },
              ]}
              ariaLabel="Map of your current location"
            />
            {geo.problem && <p className="mt-2 text-sm text-amber-700">{geo.problem}</p>}
          </>
        )}
      </div>
    </section>
  );
}

function Explanation({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-6">
      <p className="font-medium text-amber-900">{title}</p>
      <p className="mt-1 text-sm text-amber-800">{children}</p>
    </div>
  );
}
