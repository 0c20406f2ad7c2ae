import { useEffect, useRef, useState } from "react";
import { GEOLOCATION_OPTIONS } from "@/lib/map-constants";
import {
  LOCATION_THROTTLE,
  shouldSendPosition,
  type Fix,
} from "@/features/professional/location-throttle";
import { m } from "@/i18n/paraglide/messages";

export type Position = Fix & { accuracy: number };

/** Why the device has no position yet: it is slow, or it could not tell. */
export type GeoProblem = "timeout" | "unavailable";

export type GeoState =
  | { status: "unsupported" }
  | { status: "waiting"; problem?: GeoProblem }
  | { status: "denied" }
  | { status: "tracking"; position: Position; problem?: GeoProblem };

export type SendState =
  { status: "idle" } | { status: "sent"; at: number } | { status: "failed"; message: string };

type Send = (position: Position) => Promise<void>;

function initialState(): GeoState {
  return typeof navigator !== "undefined" && "geolocation" in navigator
    ? { status: "waiting" }
    : { status: "unsupported" };
}

/**
 * Watches the device position and hands it to `send`, throttled by `shouldSendPosition`. Positions arrive only
 * when the device reports a change, so a timer re-sends the last one once `maxIntervalMs` has passed.
 */
export function useLocationSharing(send: Send): { geo: GeoState; sent: SendState } {
  const [geo, setGeo] = useState<GeoState>(initialState);
  const [sent, setSent] = useState<SendState>({ status: "idle" });
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  }, [send]);

  useEffect(() => {
    if (!("geolocation" in navigator)) return;
    let lastSent: Fix | null = null;
    let latest: Position | null = null;
    let inFlight = false;

    const maybeSend = (position: Position) => {
      if (inFlight || !shouldSendPosition(lastSent, position)) return;
      lastSent = position;
      inFlight = true;
      sendRef
        .current(position)
        .then(
          () => setSent({ status: "sent", at: position.at }),
          (error: unknown) =>
            setSent({
              status: "failed",
              message: error instanceof Error ? error.message : m.live_no_answer(),
            }),
        )
        .finally(() => {
          inFlight = false;
        });
    };

    const watchId = navigator.geolocation.watchPosition(
      (p) => {
        latest = {
          lat: p.coords.latitude,
          lng: p.coords.longitude,
          accuracy: p.coords.accuracy,
          at: Date.now(),
        };
        setGeo({ status: "tracking", position: latest });
        maybeSend(latest);
      },
      (error) => {
        if (error.code === error.PERMISSION_DENIED) {
          setGeo({ status: "denied" });
          return;
        }
        const problem: GeoProblem = error.code === error.TIMEOUT ? "timeout" : "unavailable";
        setGeo((g) =>
          g.status === "tracking" ? { ...g, problem } : { status: "waiting", problem },
        );
      },
      GEOLOCATION_OPTIONS,
    );
    const timer = setInterval(() => {
      if (latest) maybeSend({ ...latest, at: Date.now() });
    }, LOCATION_THROTTLE.maxIntervalMs / 3);

    return () => {
      navigator.geolocation.clearWatch(watchId);
      clearInterval(timer);
    };
  }, []);

  return { geo, sent };
}
