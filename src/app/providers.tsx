import { ConvexAuthProvider } from "@convex-dev/auth/react";
import { ConvexReactClient } from "convex/react";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes, loadRoutes } from "@/app/router";
import { PwaShell } from "@/app/pwa/pwa-shell";
import { SuspensionNotice } from "@/app/suspension-notice";
import { PresenceHeartbeat } from "@/features/presence/presence-heartbeat";
import { CONVEX_URL } from "@/lib/constants";
import { LocaleKeyed, LocaleProfileSync } from "@/app/locale-profile-sync";

// Function log lines (including handled ConvexErrors) are echoed to the console only in development.
const convex = new ConvexReactClient(CONVEX_URL, { logger: import.meta.env.DEV });
// The first page's modules start loading at startup too, beside the client's connection.
const firstRoutes = loadRoutes(window.location.pathname);

export function Providers() {
  return (
    <ConvexAuthProvider client={convex}>
      <PresenceHeartbeat />
      <LocaleProfileSync />
      <LocaleKeyed>
        <PwaShell />
        <SuspensionNotice />
        <BrowserRouter>
          <AppRoutes firstRoutes={firstRoutes} />
        </BrowserRouter>
      </LocaleKeyed>
    </ConvexAuthProvider>
  );
}
