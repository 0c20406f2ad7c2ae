import { ConvexAuthProvider } from "@convex-dev/auth/react";
import { ConvexReactClient } from "convex/react";
import { RouterProvider } from "react-router-dom";
import { Toaster } from "sonner";
import { router } from "@/app/router";
import { PresenceHeartbeat } from "@/features/presence/presence-heartbeat";
import { CONVEX_URL, TOASTS } from "@/lib/constants";

// Function log lines (including handled ConvexErrors) are echoed to the console only in development.
const convex = new ConvexReactClient(CONVEX_URL, { logger: import.meta.env.DEV });

export function Providers() {
  return (
    <ConvexAuthProvider client={convex}>
      <PresenceHeartbeat />
      <RouterProvider router={router} />
      <Toaster
        visibleToasts={TOASTS.visible}
        duration={TOASTS.durationMs}
        gap={TOASTS.gapPx}
        hotkey={[...TOASTS.hotkey]}
        style={{ "--width": `${TOASTS.widthPx}px` } as React.CSSProperties}
        richColors
        closeButton
      />
    </ConvexAuthProvider>
  );
}
