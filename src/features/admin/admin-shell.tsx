import { useConvexAuth, useQuery } from "convex/react";
import { useState, type ReactNode } from "react";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router-dom";
import { NavLink } from "@/components/link";
import { api } from "@convex/_generated/api";
import { LanguageSwitch } from "@/components/language-switch";
import { LoadingState } from "@/components/ui/states";
import { useSwitchLocale } from "@/app/locale-profile-sync";
import { useLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";
import { useLogout } from "@/lib/use-logout";
import { TwoFactorSetup } from "./two-factor-setup";

const NAV = [
  { label: m.nav_dashboard, to: paths.adminDashboard() },
  { label: m.admin_nav_users, to: paths.adminUsers() },
  { label: m.admin_nav_technicians, to: paths.adminTechnicians() },
  { label: m.label_bookings, to: paths.adminBookings() },
  { label: m.admin_nav_messages, to: paths.adminMessages() },
  { label: m.admin_nav_reports, to: paths.adminReports() },
  { label: m.admin_nav_held_reviews, to: paths.adminHeldReviews() },
  { label: m.payouts_title, to: paths.adminPayouts() },
  { label: m.admin_nav_revenue, to: paths.adminRevenue() },
  { label: m.admin_nav_settings, to: paths.adminSettings() },
  { label: m.security_title, to: paths.adminAccount() },
] as const;

/** Unhandled contact messages, live: a new message raises it on every admin's screen at once. */
function UnreadBadge() {
  const unread = useQuery(api.admin.unreadMessages);
  return <CountBadge count={unread} label={m.admin_unread} />;
}

/** Open reports, live, as the inbox counts messages. */
function OpenReportsBadge() {
  const open = useQuery(api.adminReports.openCount);
  return <CountBadge count={open} label={m.admin_reports_open_count} />;
}

function CountBadge({
  count: unread,
  label,
}: {
  count: number | undefined;
  label: (p: { count: string }) => string;
}) {
  if (!unread) return null;
  return (
    <span
      aria-label={label({ count: formatNumber(unread) })}
      className="ml-2 rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white"
    >
      {unread >= 100 ? formatDigits("99+") : formatNumber(unread)}
    </span>
  );
}

/**
 * The admin layout: sidebar (a top bar on small screens) around the admin pages. The client only redirects
 * visitors who are not admins to /admin-login; every admin function checks the role on the server.
 */
export default function AdminShell() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  if (isLoading || (isAuthenticated && viewer === undefined)) {
    return (
      <main className="min-h-dvh bg-slate-100">
        <LoadingState label={m.admin_checking_session()} />
      </main>
    );
  }
  if (!isAuthenticated || viewer?.role !== "admin")
    return <Navigate to={paths.adminLogin()} replace />;
  return (
    <TwoFactorGate name={viewer.name || viewer.username || m.admin_default_name()}>
      <AdminLayout name={viewer.name || viewer.username || m.admin_default_name()} />
    </TwoFactorGate>
  );
}

/**
 * An admin without an authenticator sets one up before the panel opens (its sign-ins then need a
 * code: auth.ts). Setup stays on screen until its recovery codes are put away, though the server
 * says two-factor is on as soon as the first code is confirmed.
 */
function TwoFactorGate({ name, children }: { name: string; children: ReactNode }) {
  const status = useQuery(api.twoFactor.status);
  const [settingUp, setSettingUp] = useState(false);
  if (status === undefined)
    return (
      <main className="min-h-dvh bg-slate-100">
        <LoadingState label={m.admin_checking_session()} />
      </main>
    );
  if (status.enabled && !settingUp) return children;
  return (
    <TwoFactorScreen
      name={name}
      onStart={() => setSettingUp(true)}
      onDone={() => setSettingUp(false)}
    />
  );
}

function TwoFactorScreen({
  name,
  onStart,
  onDone,
}: {
  name: string;
  onStart: () => void;
  onDone: () => void;
}) {
  const navigate = useNavigate();
  const { logout, busy: leaving } = useLogout(name, () =>
    navigate(paths.adminLogin(), { replace: true }),
  );
  return (
    <main className="flex min-h-dvh items-start justify-center bg-slate-100 px-4 py-8 sm:items-center">
      <div className="w-full max-w-lg space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <div className="flex items-start justify-between gap-3">
          <h1 className="text-2xl font-semibold text-slate-900">{m.tf_title()}</h1>
          <button
            type="button"
            onClick={() => void logout()}
            disabled={leaving}
            className="rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-60"
          >
            {leaving ? m.admin_logging_out() : m.nav_logout()}
          </button>
        </div>
        <TwoFactorSetup onStart={onStart} onDone={onDone} />
      </div>
    </main>
  );
}

function AdminLayout({ name }: { name: string }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  const { logout, busy: leaving } = useLogout(name, () =>
    navigate(paths.adminLogin(), { replace: true }),
  );

  const linkClass = (active: boolean) =>
    `flex min-h-11 items-center gap-1 whitespace-nowrap rounded-lg px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${
      active ? "bg-brand-600 text-white" : "text-slate-200 hover:bg-slate-700"
    }`;

  const logoutButton = (className: string) => (
    <button
      type="button"
      onClick={() => void logout()}
      disabled={leaving}
      className={`min-h-11 rounded-lg px-3 text-sm font-medium whitespace-nowrap text-slate-100 ring-1 ring-slate-500 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-60 ${className}`}
    >
      {leaving ? m.admin_logging_out() : m.nav_logout()}
    </button>
  );

  return (
    <div className="flex min-h-dvh flex-col bg-slate-100 md:flex-row">
      {/* the background runs the page's full height; the menu itself stays in view while scrolling */}
      <aside className="bg-slate-800 text-white md:w-56 md:shrink-0 md:self-stretch">
        <div className="md:sticky md:top-0 md:flex md:h-dvh md:flex-col">
          <div className="flex items-center justify-between gap-2 px-4 py-3 md:block md:py-5">
            <div className="min-w-0">
              <p className="font-semibold">
                GharSewa{" "}
                <span className="font-normal text-slate-300">{m.admin_brand_suffix()}</span>
              </p>
              <p className="truncate text-xs text-slate-300 md:mt-1">
                {m.nav_signed_in_as({ name })}
              </p>
            </div>
            <div className="flex shrink-0 items-center gap-2 md:mt-3">
              <LanguageSwitch locale={locale} onChange={switchLocale} compact />
              {logoutButton("md:hidden")}
            </div>
          </div>
          <nav aria-label={m.admin_nav_label()} className="px-2 pb-2 md:flex-1">
            <ul className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap">
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={({ isActive }) =>
                      // /admin-panel shows the technicians grid, so that entry is active there too.
                      linkClass(
                        isActive ||
                          (item.to === paths.adminTechnicians() && pathname === paths.adminPanel()),
                      )
                    }
                  >
                    {item.label()}
                    {item.to === paths.adminMessages() && <UnreadBadge />}
                    {item.to === paths.adminReports() && <OpenReportsBadge />}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="hidden px-2 pb-4 md:block">{logoutButton("w-full text-left")}</div>
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
