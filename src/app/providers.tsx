import { ConvexAuthProvider } from "@convex-dev/auth/react";
import { ConvexReactClient } from "convex/react";
import { AppRoutes, loadRoutes } from "@/app/router";
import { PageReadyRouter } from "@/app/page-ready-router";
import { PwaShell } from "@/app/pwa/pwa-shell";
import { SuspensionNotice } from "@/app/suspension-notice";
import { PresenceHeartbeat } from "@/features/presence/presence-heartbeat";
import { CONVEX_URL } from "@/lib/constants";
import { LocaleProfileSync } from "@/app/locale-profile-sync";
import { useLocale } from "@/i18n/locale";

// Function log lines (including handled ConvexErrors) are echoed to the console only in development.
const convex = new ConvexReactClient(CONVEX_URL, { logger: import.meta.env.DEV });
// The client opens its socket when first asked (the header's connection dot, in the first page's
// render); asking in a task of its own opens it while the first page's modules still load, and takes
// the client's setup out of that render (Lighthouse: ~20% of /login's longest task at 4× CPU).
setTimeout(() => convex.connectionState(), 0);

export function Providers() {
  // A language switch renders everything again in place: what is outside the routes from here, the
  // routes from AppRoutes (whose static route elements would otherwise not re-render).
  useLocale();
  return (
    <ConvexAuthProvider client={convex}>
      <PresenceHeartbeat />
      <LocaleProfileSync />
      <PwaShell />
      <SuspensionNotice />
      <PageReadyRouter load={loadRoutes}>
        <AppRoutes />
      </PageReadyRouter>
    </ConvexAuthProvider>
  );
}
