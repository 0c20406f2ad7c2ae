import { lazy, type ComponentType, type ReactNode } from "react";
import { Navigate, useLocation, useRoutes, type RouteObject } from "react-router-dom";
import { RootLayout } from "@/app/layouts/root-layout";
import { RouteErrorBoundary } from "@/app/route-error";
import { CustomerOnly, GuestOnly } from "@/app/guards";

/**
 * A lazily loaded route whose module's default export is the page. The root layout's Suspense shows the
 * loading state on first load; a navigation is a transition, so the current page stays until the next loads.
 */
function page(load: () => Promise<{ default: ComponentType }>): { element: ReactNode } {
  const Page = lazy(load);
  return { element: <Page /> };
}

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: "/", ...page(() => import("@/features/landing/home-page")) },
      { path: "/about", ...page(() => import("@/features/landing/about-page")) },
      { path: "/contact", ...page(() => import("@/features/landing/contact-page")) },
      { path: "/services", ...page(() => import("@/features/catalog/services-page")) },
      { path: "/services/search", ...page(() => import("@/features/search/search-page")) },
      { path: "/services-tile-Marbal", ...page(() => import("@/features/catalog/tile-marble-page")) },
      {
        element: <GuestOnly />,
        children: [
          { path: "/signup", ...page(() => import("@/features/auth/signup-page")) },
          { path: "/user-signup", ...page(() => import("@/features/auth/customer-signup-page")) },
          { path: "/professional/signup", ...page(() => import("@/features/auth/professional-signup-page")) },
          { path: "/login", ...page(() => import("@/features/auth/login-page")) },
        ],
      },
      { path: "/professional-signin", ...page(() => import("@/features/professional/signin-page")) },
      { path: "/professional-dashboard", ...page(() => import("@/features/professional/dashboard-page")) },
      {
        element: <CustomerOnly />,
        children: [
          { path: "/customer/profile", ...page(() => import("@/features/account/profile-page")) },
          { path: "/customer/notification", ...page(() => import("@/features/account/notifications-page")) },
        ],
      },
      { path: "/admin-login", ...page(() => import("@/features/admin/login-page")) },
      {
        ...page(() => import("@/features/admin/admin-shell")),
        children: [
          { path: "/admin-panel", ...page(() => import("@/features/admin/technicians-page")) },
          { path: "/admin/dashboard", ...page(() => import("@/features/admin/dashboard-page")) },
          { path: "/admin/users", ...page(() => import("@/features/admin/users-page")) },
          { path: "/admin/technicians", ...page(() => import("@/features/admin/technicians-page")) },
          { path: "/admin/settings", ...page(() => import("@/features/admin/settings-page")) },
        ],
      },
      { path: "*", element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * Declarative routing (BrowserRouter + useRoutes), not the data router: no route has a loader or action,
 * and createBrowserRouter's data layer was ~16 KB gzip of the landing's initial JS.
 */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes);
  return <RouteErrorBoundary location={location.key}>{element}</RouteErrorBoundary>;
}
