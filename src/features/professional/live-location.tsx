import { useMutation } from "convex/react";
import { Suspense, useCallback, type ReactNode } from "react";
import { LazyMarkersMap } from "@/components/map/lazy-markers-map";
import { api } from "@convex/_generated/api";
import { InlineAlert } from "@/components/ui/states";
import { DASHBOARD_MAP } from "@/lib/map-constants";
import { errorData, errorMessage } from "@/lib/errors";
import { formatKathmanduTime } from "@/lib/format";
import {
  useLocationSharing,
  type GeoProblem,
  type Position,
} from "@/features/professional/use-location-sharing";
import { useWakeLock } from "@/features/professional/use-wake-lock";
import { m } from "@/i18n/paraglide/messages";

/**
 * The professional's position: watched on the device, shared with the server (throttled), shown on a
 * map while `showMap` (the section is open; sharing goes on while it is hidden).
 */
export function LiveLocation({ enRoute, showMap }: { enRoute: boolean; showMap: boolean }) {
  const update = useMutation(api.locations.update);
  const send = useCallback(
    async (p: Position) => {
      try {
        await update({ latitude: p.lat, longitude: p.lng, accuracy: p.accuracy });
      } catch (error) {
        // two fixes within a second: this one is dropped and the next one goes, nothing to tell
        if (errorData(error)?.code === "RATE_LIMITED") return;
        throw new Error(errorMessage(error, m.live_not_accepted()), {
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
          {m.live_heading()}
        </h2>
        <p className="text-xs text-slate-500" aria-live="polite">
          {sent.status === "sent" && m.live_sent_at({ time: formatKathmanduTime(sent.at) })}
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-600">{m.live_only_open()}</p>
      {sent.status === "failed" && (
        <InlineAlert tone="error" className="mt-2">
          {m.live_share_failed({ reason: sent.message })}
        </InlineAlert>
      )}
      {enRoute && wakeLock !== "off" && (
        <p className="mt-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-800">
          {wakeLock === "on" ? m.live_wake_on() : m.live_wake_off()}
        </p>
      )}
      <div className="mt-3">
        {geo.status === "unsupported" ? (
          <Explanation title={m.live_unsupported_title()}>{m.live_unsupported_text()}</Explanation>
        ) : geo.status === "denied" ? (
          <Explanation title={m.live_denied_title()}>{m.live_denied_text()}</Explanation>
        ) : geo.status === "waiting" || !showMap ? (
          <MapPlaceholder problem={geo.status === "waiting" ? geo.problem : undefined} />
        ) : (
          <>
            <Suspense fallback={<MapPlaceholder />}>
              <LazyMarkersMap
                center={[geo.position.lat, geo.position.lng]}
                zoom={DASHBOARD_MAP.zoom}
                heightPx={DASHBOARD_MAP.heightPx}
                markers={[
                  {
                    id: "me",
                    lat: geo.position.lat,
                    lng: geo.position.lng,
                    label: m.live_marker_label(),
                  },
                ]}
                ariaLabel={m.dash_map_label()}
              />
            </Suspense>
            {geo.problem && (
              <p className="mt-2 text-sm text-amber-700">{problemText(geo.problem)}</p>
            )}
          </>
        )}
      </div>
    </section>
  );
}

function MapPlaceholder({ problem }: { problem?: GeoProblem }) {
  return (
    <div
      className="flex w-full flex-col items-center justify-center gap-2 rounded-lg bg-slate-100 text-slate-600"
      style={{ height: DASHBOARD_MAP.heightPx }}
    >
      <p role="status">{m.dash_loading_map()}</p>
      {problem && <p className="px-4 text-center text-sm">{problemText(problem)}</p>}
    </div>
  );
}

function problemText(problem: GeoProblem): string {
  return problem === "timeout" ? m.live_problem_timeout() : m.live_problem_unknown();
}

function Explanation({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-6">
      <p className="font-medium text-amber-900">{title}</p>
      <p className="mt-1 text-sm text-amber-800">{children}</p>
    </div>
  );
}
