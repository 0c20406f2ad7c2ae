import { Suspense, useEffect, useState } from "react";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { Link, NavLink } from "@/components/link";
import { useAuthToken } from "@convex-dev/auth/react";
import { useConvexAuth, useConvexConnectionState, useQuery } from "convex/react";
import { useKeepSessionHint } from "@/lib/visitor-auth";
import { api } from "@convex/_generated/api";
import { HeaderSearch } from "@/app/layouts/header-search";
import { Avatar } from "@/components/avatar";
import { afterLoad } from "@/lib/after-load";
import { useOnline } from "@/lib/use-online";
import { paths } from "@/lib/paths";
import { LanguageSwitch } from "@/components/language-switch";
import { useLocale } from "@/i18n/locale";
import { m } from "@/i18n/paraglide/messages";
import { BRAND_NE } from "@/i18n/devanagari-chrome";
import { useSwitchLocale } from "@/app/locale-profile-sync";
import { navLinkClass, type MenuItem } from "@/app/layouts/nav-links";

// A signed-in user's controls (chat, notifications, the account menu's Radix popover) and the logout
// dialog (sign-out, toasts) load only for signed-in users, keeping them out of the landing's initial JS.
const loadAccount = () => import("@/app/layouts/header-account");
const HeaderAccount = lazyWhenOnline(loadAccount);
const LogoutDialog = lazyWhenOnline(() => import("@/app/layouts/logout-dialog"));
// The small screens' menu drawer shows nothing until opened: it loads after the page, or on the tap.
const loadDrawer = () => import("@/app/layouts/header-drawer");
const HeaderDrawer = lazyWhenOnline(loadDrawer);

/** Spec §2: customer and professional menus; any other role reads 'Unknown role'. */
function menuFor(role: string): MenuItem[] | null {
  if (role === "customer") return [{ label: m.nav_my_profile(), to: paths.customerProfile() }];
  if (role === "professional")
    return [
      { label: m.nav_dashboard(), to: paths.professionalDashboard() },
      { label: m.nav_my_profile(), to: paths.professionalAccount() },
      { label: m.nav_notifications(), to: paths.professionalDashboard("alerts") },
    ];
  return null;
}

export function Header() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const keptToken = useAuthToken();
  // a session kept on this device that the server has not confirmed yet (offline, or connecting)
  const sessionPending = isLoading && keptToken !== null;
  useKeepSessionHint({ isLoading, isAuthenticated });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const [logoutOpen, setLogoutOpen] = useState(false);
  const signedIn = isAuthenticated && viewer;
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  useEffect(() => afterLoad(() => void loadDrawer()), []);
  useEffect(() => {
    if (isAuthenticated) void loadAccount();
  }, [isAuthenticated]);

  return (
    <header className="sticky top-0 print:hidden z-[1000] border-b border-slate-200 bg-white/95 backdrop-blur">
      <nav
        className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-1.5 gap-y-2 px-3 py-2 sm:gap-x-3 sm:px-4"
        aria-label={m.nav_main()}
      >
        <button
          type="button"
          className="-ml-2 inline-flex h-11 w-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
          aria-label={m.nav_open_menu()}
          aria-haspopup="dialog"
          aria-expanded={drawerOpen}
          onClick={() => {
            setDrawerUsed(true);
            setDrawerOpen(true);
          }}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
            <path d="M3 5h14v2H3zm0 4h14v2H3zm0 4h14v2H3z" />
          </svg>
        </button>
        <Logo />
        <HeaderSearch className="order-last w-full md:order-none md:mx-4 md:w-auto md:max-w-sm md:flex-1" />
        <div className="ml-auto flex items-center gap-1 sm:gap-3">
          <ConnectionIndicator />
          <LanguageSwitch locale={locale} onChange={switchLocale} compact />
          {signedIn ? (
            <>
              <Suspense fallback={<Avatar src={viewer.photoUrl} name={viewer.name} size={32} />}>
                <HeaderAccount
                  viewer={viewer}
                  items={menuFor(viewer.role)}
                  onLogout={() => setLogoutOpen(true)}
                />
              </Suspense>
            </>
          ) : sessionPending ? null : (
            <>
              <Link
                to={paths.login()}
                className="inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-medium text-brand-700 hover:bg-slate-100 md:hidden"
              >
                {m.nav_login()}
              </Link>
              <div className="hidden items-center gap-1 text-sm md:flex">
                <SignedOutLinks />
              </div>
            </>
          )}
        </div>
      </nav>

      {drawerUsed && (
        <Suspense fallback={null}>
          <HeaderDrawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            viewer={signedIn ? viewer : null}
            items={signedIn ? menuFor(viewer.role) : null}
            onLogout={() => setLogoutOpen(true)}
          />
        </Suspense>
      )}

      {viewer && (
        <Suspense fallback={null}>
          <LogoutDialog open={logoutOpen} name={viewer.name} onClose={() => setLogoutOpen(false)} />
        </Suspense>
      )}
    </header>
  );
}

function Logo() {
  return (
    <Link
      to={paths.home()}
      className="flex min-h-11 min-w-11 items-center justify-center gap-2 font-semibold text-brand-700"
    >
      <img src="/logo.svg" alt="" className="h-8 w-8" />
      {/* a phone shows the mark alone: the header keeps one row for its 44 px controls */}
      <span className="sr-only sm:not-sr-only">
        GharSewa{" "}
        <span
          lang="ne-NP"
          className="hidden font-chrome text-sm font-normal text-slate-500 sm:inline"
        >
          {BRAND_NE}
        </span>
      </span>
    </Link>
  );
}

function SignedOutLinks() {
  return (
    <>
      <NavLink to={paths.about()} className={navLinkClass}>
        {m.nav_about()}
      </NavLink>
      <NavLink to={paths.login()} className={navLinkClass}>
        {m.nav_login()}
      </NavLink>
      <NavLink
        to={paths.signup()}
        className="rounded-lg bg-brand-700 px-3 py-2 font-medium text-white hover:bg-brand-800"
      >
        {m.nav_signup()}
      </NavLink>
    </>
  );
}

/** The Convex client's WebSocket state, replacing the spec's socket status. */
function ConnectionIndicator() {
  const { isWebSocketConnected, hasEverConnected } = useConvexConnectionState();
  // the browser knows at once; the socket only notices at its next missed ping (tens of seconds)
  const online = useOnline();
  const [label, dot] = !online
    ? [m.connection_offline(), "bg-red-500"]
    : isWebSocketConnected
      ? [m.connection_connected(), "bg-green-500"]
      : hasEverConnected
        ? [m.connection_reconnecting(), "bg-amber-500 animate-pulse motion-reduce:animate-none"]
        : [m.connection_connecting(), "bg-slate-400"];
  return (
    <span role="status" className="flex items-center gap-1.5 text-xs text-slate-600" title={label}>
      <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${dot}`} />
      <span className={online && isWebSocketConnected ? "sr-only" : "sr-only sm:not-sr-only"}>
        {label}
      </span>
    </span>
  );
}
