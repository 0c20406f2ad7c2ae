import { Suspense, useState } from "react";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { useConvexAuth } from "convex/react";

// Loaded at sign-in, in the background: a network lost meanwhile delays them rather than failing the app.
const SuspensionDialog = lazyWhenOnline(() => import("@/app/suspension-dialog"));
const SessionEnded = lazyWhenOnline(() => import("@/app/session-ended"));
const DeviceSeen = lazyWhenOnline(() => import("@/app/device-seen"));

/**
 * Watches a signed-in account for suspension (suspension-dialog.tsx) and for its session ending
 * elsewhere (session-ended.tsx), and names this device to it (device-seen.tsx), loaded at sign-in: visitors never need them. Once mounted they stay,
 * so a notice outlives the sign-out it causes.
 */
export function SuspensionNotice() {
  const { isAuthenticated } = useConvexAuth();
  const [watching, setWatching] = useState(false);
  if (isAuthenticated && !watching) setWatching(true);
  return (
    watching && (
      <Suspense fallback={null}>
        <SuspensionDialog />
        <SessionEnded />
        <DeviceSeen />
      </Suspense>
    )
  );
}
