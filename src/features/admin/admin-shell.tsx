import { useConvexAuth, useQuery } from "convex/react";
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from "react-router-dom";
import { api } from "@convex/_generated/api";
import { LoadingState } from "@/components/ui/states";
import { paths } from "@/lib/paths";
import { useLogout } from "@/lib/use-logout";

const NAV = [
  { label: "Dashboard", to: paths.adminDashboard() },
  { label: "Users", to: paths.adminUsers() },
  { label: "Technicians", to: paths.adminTechnicians() },
  { label: "Messages", to: paths.adminMessages() },
  { label: "Settings", to: paths.adminSettings() },
] as const;

/** Unhandled contact messages, live: a new message raises it on every admin's screen at once. */
function UnreadBadge() {
  const unread = useQuery(api.admin.unreadMessages);
  if (!unread) return null;
  return (
    <span
      aria-label={`${unread} unread`}
      className="ml-2 rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white"
    >
      {unread >= 100 ? "99+" : unread}
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
        <LoadingState label="Checking your admin session…" />
      </main>
    );
  }
  if (!isAuthenticated || viewer?.role !== "admin")
    return <Navigate to={paths.adminLogin()} replace />;
  return <AdminLayout name={viewer.name || viewer.username || "Admin"} />;
}

function AdminLayout({ name }: { name: string }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { logout, busy: leaving } = useLogout(name, () =>
    navigate(paths.adminLogin(), { replace: true }),
  );

  const linkClass = (active: boolean) =>
    `block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${
      active ? "bg-brand-600 text-white" : "text-slate-200 hover:bg-slate-700"
    }`;

  const logoutButton = (className: string) => (
    <button
      type="button"
      onClick={() => void logout()}
      disabled={leaving}
      className={`rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-100 ring-1 ring-slate-500 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-60 ${className}`}
    >
      {leaving ? "Logging out…" : "Logout"}
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
                GharSewa <span className="font-normal text-slate-300">Admin</span>
              </p>
              <p className="truncate text-xs text-slate-300 md:mt-1">Signed in as {name}</p>
            </div>
            {logoutButton("md:hidden")}
          </div>
          <nav
            aria-label="Admin"
            className="overflow-x-auto px-2 pb-2 md:flex-1 md:overflow-visible"
          >
            <ul className="flex gap-1 md:flex-col">
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
                    {item.label}
                    {item.to === paths.adminMessages() && <UnreadBadge />}
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
