import { useConvexAuth, useQuery } from "convex/react";
import { useEffect, useState, type ComponentType, type ReactNode } from "react";
import { Navigate, useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { DASHBOARD_SECTIONS, paths, type DashboardSection } from "@/lib/paths";
import { formatNumber } from "@/lib/numbers";
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

/** The bookings panel, composed in by the route: it says what the section tabs show. */
export type BookingsSlot = ComponentType<{
  view: "requests" | "jobs";
  onSummary: (summary: BookingsSummary) => void;
}>;
export type BookingsSummary = {
  enRoute: boolean;
  requests: number;
  linkedIn: "requests" | "jobs" | null;
  unreadIn: Record<"requests" | "jobs", number>;
};

/**
 * Professionals only: visitors go to the professional sign-in, customers home, admins to their panel.
 * Opened without a network, it shows the jobs this device last saw (`LastKnown`) until it connects.
 */
export function DashboardPage({
  Bookings,
  LastKnown,
}: {
  Bookings: BookingsSlot;
  LastKnown: ComponentType;
}) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const online = useOnline();
  if (isLoading || (isAuthenticated && viewer === undefined))
    return online ? <LoadingState label={m.dash_loading()} /> : <LastKnown />;
  if (!isAuthenticated || !viewer) return <Navigate to={paths.professionalSignin()} replace />;
  if (viewer.role === "admin") return <Navigate to={paths.adminPanel()} replace />;
  if (viewer.role !== "professional") return <Navigate to={paths.home()} replace />;
  return <Dashboard Bookings={Bookings} />;
}

const CLOCK_TICK_MS = 60_000;

const SECTION_LABELS: Record<DashboardSection, () => string> = {
  requests: m.dash_tab_requests,
  jobs: m.label_jobs,
  hours: m.dash_tab_hours,
  alerts: m.dash_tab_alerts,
  location: m.label_location,
};

/**
 * The dashboard in sections a phone reaches in one tap (`?section=`, so links open one). Every
 * section stays mounted while hidden: request alerts keep sounding and the position keeps being shared.
 */
function Dashboard({ Bookings }: { Bookings: BookingsSlot }) {
  const { hasTakenJob } = useNewRequestSignal();
  const [params] = useSearchParams();
  const [summary, setSummary] = useState<BookingsSummary>(NO_SUMMARY);
  const asked = params.get("section");
  const section: DashboardSection =
    DASHBOARD_SECTIONS.find((s) => s === asked) ?? summary.linkedIn ?? "requests";
  const now = useMinuteClock();
  const shows = (...these: DashboardSection[]) => (these.includes(section) ? undefined : true);
  return (
    <main className="mx-auto w-full max-w-6xl px-3 py-4 sm:px-4 sm:py-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold text-slate-900">{m.dash_title()}</h1>
        <Link
          to={paths.professionalEarnings()}
          className="inline-flex min-h-11 items-center rounded-full bg-white px-4 text-sm font-medium text-brand-700 ring-1 ring-brand-600 hover:bg-brand-50"
        >
          {m.earnings_open()}
        </Link>
      </div>
      <InstallOffer hasTakenJob={hasTakenJob} />
      <nav aria-label={m.dash_sections()} className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {DASHBOARD_SECTIONS.map((s) => (
            <li key={s}>
              <Link
                to={paths.professionalDashboard(s)}
                replace
                aria-current={s === section ? "page" : undefined}
                className={`inline-flex min-h-11 items-center gap-1.5 rounded-full px-4 text-sm font-medium ring-1 ${
                  s === section
                    ? "bg-brand-700 text-white ring-brand-700"
                    : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-100"
                }`}
              >
                {SECTION_LABELS[s]()}
                {s === "requests" && summary.requests > 0 && (
                  <span className="rounded-full bg-amber-400 px-1.5 text-xs leading-5 text-slate-900">
                    {formatNumber(summary.requests)}
                  </span>
                )}
                {(s === "requests" || s === "jobs") && summary.unreadIn[s] > 0 && (
                  <span className="rounded-full bg-red-600 px-1.5 text-xs leading-5 font-semibold text-white">
                    <span aria-hidden="true">{formatNumber(summary.unreadIn[s])}</span>
                    <span className="sr-only">
                      {m.dash_tab_unread({ count: formatNumber(summary.unreadIn[s]) })}
                    </span>
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Panel title={m.dash_panel_this_booking()}>
        <LinkedBookingNotice />
      </Panel>
      <div hidden={shows("requests", "jobs")}>
        <Panel title={m.dash_panel_bookings()}>
          <Bookings view={section === "jobs" ? "jobs" : "requests"} onSummary={setSummary} />
        </Panel>
      </div>
      <div hidden={shows("hours")} className="grid gap-4 lg:grid-cols-2 lg:items-start">
        <Panel title={m.dash_panel_profile()}>
          <ProfileCard />
        </Panel>
        <Panel title={m.hours_title()}>
          <WorkingHoursPanel />
        </Panel>
      </div>
      <div hidden={shows("alerts")} className="grid gap-4 lg:grid-cols-2 lg:items-start">
        <Panel title={m.nav_notifications()}>
          <NotificationsBox now={now} />
        </Panel>
        <div className="space-y-4">
          <Panel title={m.alerts_heading()}>
            <RequestAlerts now={now} />
          </Panel>
          <Panel title={m.activity_heading()}>
            <RecentActivity now={now} />
          </Panel>
        </div>
      </div>
      <div hidden={shows("location")}>
        <Panel title={m.live_heading()}>
          <LiveLocation enRoute={summary.enRoute} showMap={section === "location"} />
        </Panel>
      </div>
    </main>
  );
}

const NO_SUMMARY: BookingsSummary = {
  enRoute: false,
  requests: 0,
  linkedIn: null,
  unreadIn: { requests: 0, jobs: 0 },
};

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

/** "5 min ago" labels need a clock that moves; a local tick, not a server poll. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
