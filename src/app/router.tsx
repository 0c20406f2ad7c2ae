import {
  cloneElement,
  isValidElement,
  lazy,
  useState,
  type ComponentType,
  type ReactNode,
} from "react";
import { matchRoutes, Navigate, useLocation, useRoutes, type RouteObject } from "react-router-dom";
import { RootLayout } from "@/app/layouts/root-layout";
import { RouteErrorBoundary } from "@/app/route-error";
import { WithFooter } from "@/app/layouts/site-footer";
import { paths } from "@/lib/paths";
import { useLocale } from "@/i18n/locale";

type PageModule = { default: ComponentType };
/** Route metadata: loads the route's module (see loadRoutes). */
type PageHandle = { load: () => Promise<PageModule> };

/**
 * A lazily loaded route whose module's default export is the page. Once its module is loaded the page renders
 * without suspending, which a navigation waits for (PageReadyRouter loads it through `handle.load` first);
 * otherwise (back and forward) it suspends in a transition and the current page stays until it has loaded.
 */
function page(load: () => Promise<PageModule>): { element: ReactNode; handle: PageHandle } {
  let Loaded: ComponentType | undefined;
  const loadOnce = () =>
    load().then((module) => {
      Loaded = module.default;
      return module;
    });
  // Chosen once per mount: switching from the lazy to Loaded on a later render (e.g. when auth settles)
  // would be a different component type and remount the page, wiping what the user typed. A new lazy
  // for each mount until the module has loaded: React.lazy keeps a failed load's error, so a page
  // whose module was lost to the network would fail on every later visit too, not load on the next.
  const Page = () => {
    const [Component] = useState(() => Loaded ?? lazy(loadOnce));
    return <Component />;
  };
  return { element: <Page />, handle: { load: loadOnce } };
}

/** A guard of @/app/guards as a layout route, loaded with the pages it guards (none is on the landing). */
const guard = (name: "GuestOnly" | "CustomerOnly" | "ProfessionalOnly") =>
  page(() => import("@/app/guards").then((guards) => ({ default: guards[name] })));

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <WithFooter />,
        children: [
          { path: paths.home(), ...page(() => import("@/app/pages/home")) },
          { path: paths.about(), ...page(() => import("@/features/landing/about-page")) },
          { path: paths.contact(), ...page(() => import("@/features/landing/contact-page")) },
          { path: paths.services(), ...page(() => import("@/features/catalog/services-page")) },
          {
            path: "/professionals/:id",
            ...page(() => import("@/app/pages/professional-profile")),
          },
          {
            path: paths.tileMarble(),
            ...page(() => import("@/features/catalog/tile-marble-page")),
          },
        ],
      },
      { path: paths.serviceSearchPage(), ...page(() => import("@/app/pages/service-search")) },
      {
        ...guard("GuestOnly"),
        children: [
          { path: paths.signup(), ...page(() => import("@/features/auth/signup-page")) },
          {
            path: paths.customerSignup(),
            ...page(() => import("@/features/auth/customer-signup-page")),
          },
          {
            path: paths.professionalSignup(),
            ...page(() => import("@/features/auth/professional-signup-page")),
          },
          { path: paths.login(), ...page(() => import("@/features/auth/login-page")) },
        ],
      },
      {
        path: paths.forgotPassword(),
        ...page(() => import("@/features/auth/forgot-password-page")),
      },
      { path: paths.codeSignin(), ...page(() => import("@/features/auth/code-signin-page")) },
      {
        path: paths.professionalSignin(),
        ...page(() => import("@/features/professional/signin-page")),
      },
      {
        path: paths.professionalDashboard(),
        ...page(() => import("@/app/pages/professional-dashboard")),
      },
      {
        ...guard("ProfessionalOnly"),
        children: [
          {
            path: paths.professionalAccount(),
            ...page(() => import("@/app/pages/professional-account")),
          },
          {
            path: paths.professionalEarnings(),
            ...page(() => import("@/features/professional/earnings-page")),
          },
        ],
      },
      {
        ...guard("CustomerOnly"),
        children: [
          { path: paths.customerProfile(), ...page(() => import("@/app/pages/customer-profile")) },
          {
            path: paths.nearestNowPage(),
            ...page(() => import("@/features/bookings/nearest-now")),
          },
          {
            path: paths.customerNotifications(),
            ...page(() => import("@/app/pages/customer-notifications")),
          },
          ...[paths.payEsewaReturn(), paths.payEsewaFailed(), paths.payKhaltiReturn()].map(
            (path) => ({
              path,
              ...page(() => import("@/features/bookings/wallets/payment-return-page")),
            }),
          ),
        ],
      },
      {
        path: paths.bookingChatPage(),
        ...page(() => import("@/features/bookings/chat/chat-page")),
      },
      {
        path: paths.receiptPage(),
        ...page(() => import("@/features/bookings/receipt/receipt-page")),
      },
      { path: paths.adminLogin(), ...page(() => import("@/features/admin/login-page")) },
      { path: paths.adminSetup(), ...page(() => import("@/features/admin/setup-page")) },
      {
        ...page(() => import("@/features/admin/admin-shell")),
        children: [
          { path: paths.adminPanel(), ...page(() => import("@/features/admin/technicians-page")) },
          {
            path: paths.adminDashboard(),
            ...page(() => import("@/features/admin/dashboard-page")),
          },
          { path: paths.adminUsers(), ...page(() => import("@/features/admin/users-page")) },
          {
            path: paths.adminTechnicians(),
            ...page(() => import("@/features/admin/technicians-page")),
          },
          { path: paths.adminSettings(), ...page(() => import("@/features/admin/settings-page")) },
          { path: paths.adminAccount(), ...page(() => import("@/app/pages/admin-account")) },
          { path: paths.adminMessages(), ...page(() => import("@/features/admin/messages-page")) },
          { path: paths.adminBookings(), ...page(() => import("@/features/admin/bookings-page")) },
          {
            path: "/admin/bookings/:bookingId",
            ...page(() => import("@/features/admin/booking-page")),
          },
          { path: "/admin/users/:userId", ...page(() => import("@/features/admin/user-page")) },
          { path: paths.adminReports(), ...page(() => import("@/features/admin/reports-page")) },
          { path: paths.adminPayouts(), ...page(() => import("@/features/admin/payouts-page")) },
          { path: paths.adminRevenue(), ...page(() => import("@/features/admin/revenue-page")) },
          {
            path: paths.adminHeldReviews(),
            ...page(() => import("@/features/admin/held-reviews-page")),
          },
          {
            path: "/admin/reports/:reportId",
            ...page(() => import("@/features/admin/report-page")),
          },
        ],
      },
      { path: "*", element: <Navigate to={paths.home()} replace /> },
    ],
  },
];

/**
 * The route tree with a fresh copy of each route's element: same component types, new element
 * objects. React re-renders (never remounts) an element of the same type at the same place, and
 * skips one that is the very same object; so after a language switch every page and layout renders
 * again, in the new language, and keeps its state (what was typed, where a flow was).
 */
function rerendered(tree: RouteObject[]): RouteObject[] {
  return tree.map((route) => ({
    ...route,
    element: isValidElement(route.element) ? cloneElement(route.element) : route.element,
    children: route.children && rerendered(route.children),
  })) as RouteObject[];
}

/** Loads, in parallel, the modules of every route (layouts included) that `pathname` matches. */
export function loadRoutes(pathname: string): Promise<unknown> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(matches.map((m) => (m.route.handle as PageHandle | undefined)?.load()));
}

/**
 * Declarative routing (PageReadyRouter + useRoutes), not the data router: no route has a loader or action,
 * and createBrowserRouter's data layer was ~16 KB gzip of the landing's initial JS. Like the data router,
 * the first location's route modules are loaded before the routes render (src/main.tsx waits for them):
 * a page that suspended instead would stay hidden behind the Suspense fallback for React's 300 ms reveal
 * throttle.
 */
export function AppRoutes() {
  const location = useLocation();
  // A new tree when the language changes (see rerendered), the same one across navigations.
  const locale = useLocale();
  const [tree, setTree] = useState({ locale, routes });
  if (tree.locale !== locale) setTree({ locale, routes: rerendered(routes) });
  const element = useRoutes(tree.routes);
  return <RouteErrorBoundary location={location.key}>{element}</RouteErrorBoundary>;
}
