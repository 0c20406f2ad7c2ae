import { createBrowserRouter, Navigate, type RouteObject } from "react-router-dom";
import type { ComponentType } from "react";
import { RootLayout } from "@/app/layouts/root-layout";
import { RouteError } from "@/app/route-error";
import { LoadingState } from "@/components/ui/states";
import { CustomerOnly, GuestOnly } from "@/app/guards";

/** A lazily loaded route whose module's default export is the page. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, "lazy"> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <LoadingState />,
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

export const router = createBrowserRouter(routes);
