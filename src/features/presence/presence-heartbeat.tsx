import { useConvexAuth, useMutation } from "convex/react";
import { useEffect } from "react";
import { api } from "@convex/_generated/api";

export const HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * Keeps the signed-in user in the online list: a heartbeat at once and every 30 s. Closing the tab stops the
 * heartbeats and the server's timeout marks the user offline. Mount once, app-wide; renders nothing.
 */
export function PresenceHeartbeat() {
  const { isAuthenticated } = useConvexAuth();
  const heartbeat = useMutation(api.presence.heartbeat);

  useEffect(() => {
    if (!isAuthenticated) return;
    // A missed beat is harmless (the next one follows), so failures are not shown.
    const beat = () => void heartbeat({}).catch(() => undefined);
    beat();
    const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [isAuthenticated, heartbeat]);

  return null;
}
