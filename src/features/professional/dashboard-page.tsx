import { useConvexAuth, useQuery } from "convex/react";
import { useEffect, useState, type ComponentType, type ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { paths } from "@/lib/paths";
import { useOnline } from "@/lib/use-online";
import { NotificationsBox, RecentActivity } from "@/features/professional/activity-boxes";
import { InstallOffer } from "@/features/professional/install-offer";
import { LinkedBookingNotice } from "@/features/professional/linked-booking-notice";
import { LiveLocation } from "@/features/professional/live-location";
import { useNewRequestSignal } from "@/features/professional/new-request-signal";
import { ProfileCard } from "@/features/professional/profile-card";
import { RequestAlerts } from "@/features/professional/request-alerts";
import { WorkingHoursPanel } from "@/features/professional/working-hours-form";
import { m } from "@/i18n/paraglide/messages";

/** The bookings panel, composed in by the route: it reports whether a job is on the way. */
export type BookingsSlot = ComponentType<{ onEnRouteChange: (enRoute: boolean) => void }>;

/** Professionals only: visitors go to the professional sign-in, customers home, admins to their panel. */
export function DashboardPage({ Bookings }: { Bookings: BookingsSlot }) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const online = useOnline();
  if (isLoading || (isAuthenticated && viewer === undefined))
    return <LoadingState label={online ? m.dash_loading() : m.dash_offline()} />;
  if (!isAuthenticated || !viewer) return <Navigate to={paths.professionalSignin()} replace />;
  if (viewer.role === "admin") return <Navigate to={paths.adminPanel()} replace />;
  if (viewer.role !== "professional") return <Navigate to={paths.home()} replace />;
  return <Dashboard Bookings={Bookings} />;
}

const CLOCK_TICK_MS = 60_000;

function Dashboard({ Bookings }: { Bookings: BookingsSlot }) {
  const { hasTakenJob } = useNewRequestSignal();
  return (
    <main className="mx-auto w-full max-w-6xl px-3 py-4 sm:px-4 sm:py-6">
      <h1 className="mb-4 text-2xl font-semibold text-slate-900">{m.dash_title()}</h1>
      <InstallOffer hasTakenJob={hasTakenJob} />
      <Panel title={m.dash_panel_this_booking()}>
        <LinkedBookingNotice />
      </Panel>
      <Panel title={m.dash_panel_bookings()}>
        <DashboardPanels Bookings={Bookings} />
      </Panel>
    </main>
  );
}

/** One failing subscription shows its error in place instead of taking the whole page down. */
function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={(error, retry) => (
        <ErrorState title={m.dash_panel_failed({ panel: title })}>
          <p>{errorMessage(error, m.dash_try_again_text())}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={retry}>
            {m.action_retry()}
          </Button>
        </ErrorState>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}

function DashboardPanels({ Bookings }: { Bookings: BookingsSlot }) {
  const [enRoute, setEnRoute] = useState(false);
  const now = useMinuteClock();
  return (
    <div className="grid gap-4 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start">
      <div className="space-y-4 lg:col-start-1 lg:row-start-1">
        <Panel title={m.dash_panel_profile()}>
          <ProfileCard />
        </Panel>

        <Panel title={m.hours_title()}>
          <WorkingHoursPanel />
        </Panel>
      </div>
      <div className="lg:col-start-2 lg:row-span-4 lg:row-start-1">
        <Bookings onEnRouteChange={setEnRoute} />
      </div>
      <div className="lg:col-start-1 lg:row-start-2">
        <Panel title={m.alerts_heading()}>
          <RequestAlerts now={now} />
        </Panel>
      </div>
      <div className="lg:col-start-1 lg:row-start-3">
        <Panel title={m.nav_notifications()}>
          <NotificationsBox now={now} />
        </Panel>
      </div>
      <div className="lg:col-start-1 lg:row-start-4">
        <Panel title={m.activity_heading()}>
          <RecentActivity now={now} />
        </Panel>
      </div>
      <div className="lg:col-span-2">
        <LiveLocation enRoute={enRoute} />
      </div>
    </div>
  );
}

/** "5 min ago" labels need a clock that moves; a local tick, not a server poll. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
