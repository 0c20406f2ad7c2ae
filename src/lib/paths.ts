const withReturn = (path: string, returnTo?: string) =>
  returnTo ? `${path}?${new URLSearchParams({ returnTo })}` : path;

const SERVICE_SEARCH = "/services/search";

/**
 * Every URL the app links to and every route's path, built in one place. Imports nothing: the build
 * reads it too (vite.config.ts, the landing pages' preloads).
 */
export const paths = {
  home: () => "/",
  about: () => "/about",
  contact: () => "/contact",
  services: () => "/services",
  /**
   * `service` optionally preselects one service of the category (header search results); `without`
   * leaves one professional out of the list (the one who just declined the customer's request).
   */
  serviceSearch: (serviceName: string, location: string, service?: string, without?: string) =>
    `${SERVICE_SEARCH}?${new URLSearchParams({
      location,
      serviceName,
      ...(service ? { service } : {}),
      ...(without ? { without } : {}),
    })}`,
  /**
   * "Nearest available now" for a category's services (`serviceName` as the search page names it)
   * in a city (slug); `request` follows a search under way.
   */
  nearestNow: (serviceName: string, category: string, city: string, request?: string) =>
    `/now?${new URLSearchParams({ serviceName, category, city, ...(request ? { request } : {}) })}`,
  nearestNowPage: () => "/now",
  /** The search results page itself (its route). */
  serviceSearchPage: () => SERVICE_SEARCH,
  tileMarble: () => "/services-tile-Marbal",
  /** `returnTo`: where to go once the new account has logged in (lib/booking-intent.ts). */
  signup: (returnTo?: string) => withReturn("/signup", returnTo),
  customerSignup: () => "/user-signup",
  professionalSignup: () => "/professional/signup",
  login: (returnTo?: string) => withReturn("/login", returnTo),
  professionalSignin: () => "/professional-signin",
  /** Forgot password, for a customer's or a professional's account. */
  forgotPassword: (role?: "customer" | "professional") =>
    role ? `/forgot-password?${new URLSearchParams({ role })}` : "/forgot-password",
  /** Sign in by a code sent by SMS, for a customer's or a professional's account. */
  codeSignin: (role?: "customer" | "professional") =>
    role ? `/code-signin?${new URLSearchParams({ role })}` : "/code-signin",
  customerProfile: () => "/customer/profile",
  /** The account page opened on My Bookings. */
  customerBookings: () => "/customer/profile?tab=bookings",
  /** My Bookings opened at one booking (scrolled to and highlighted). */
  customerBooking: (id: string) =>
    `/customer/profile?${new URLSearchParams({ tab: "bookings", booking: id })}`,
  customerNotifications: () => "/customer/notification",
  /** Where eSewa and Khalti send the customer back (convex/model/payments/gateways.ts builds them). */
  payEsewaReturn: () => "/pay/esewa/:transactionUuid",
  payEsewaFailed: () => "/pay/esewa/:transactionUuid/failed",
  payKhaltiReturn: () => "/pay/khalti",
  /** The dashboard, optionally opened on one section (`booking`: a booking to open in its list). */
  professionalDashboard: (section?: DashboardSection, booking?: string) => {
    const query = new URLSearchParams({
      ...(section ? { section } : {}),
      ...(booking ? { booking } : {}),
    }).toString();
    return query ? `/professional-dashboard?${query}` : "/professional-dashboard";
  },
  /** A professional's account: profile, data export, deletion (the customers' tools). */
  professionalAccount: () => "/professional/account",
  /** The professional's jobs, balance and payouts. */
  professionalEarnings: () => "/professional/earnings",
  /** Where a role starts once signed in: customers the home page, professionals their dashboard. */
  roleHome: (role: "customer" | "professional" | "admin") =>
    role === "professional" ? "/professional-dashboard" : role === "admin" ? "/admin-panel" : "/",
  /** A booking's conversation between its customer and its professional. */
  bookingChat: (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/chat`,
  bookingChatPage: () => "/bookings/:bookingId/chat",
  /** A paid booking's receipt, for its customer, its professional and admins. */
  receipt: (bookingId: string) => `/receipts/${encodeURIComponent(bookingId)}`,
  receiptPage: () => "/receipts/:bookingId",
  /** A professional's public profile. */
  professionalProfile: (id: string) => `/professionals/${encodeURIComponent(id)}`,
  adminLogin: () => "/admin-login",
  /** An admin's one-time setup link's page (the link itself is printed by npm run create-admin). */
  adminSetup: () => "/admin-setup",
  adminPanel: () => "/admin-panel",
  adminDashboard: () => "/admin/dashboard",
  adminUsers: () => "/admin/users",
  adminTechnicians: () => "/admin/technicians",
  adminSettings: () => "/admin/settings",
  /** The signed-in admin's own account: password, devices, two-factor. */
  adminAccount: () => "/admin/account",
  adminMessages: () => "/admin/messages",
  /** The bookings view, optionally filtered (status, city, professional, customer; `who` names the person). */
  adminBookings: (filters: AdminBookingFilters = {}) => {
    const query = new URLSearchParams(
      Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === "string"),
    ).toString();
    return query ? `/admin/bookings?${query}` : "/admin/bookings";
  },
  adminBooking: (id: string) => `/admin/bookings/${encodeURIComponent(id)}`,
  adminUser: (id: string) => `/admin/users/${encodeURIComponent(id)}`,
  adminReports: () => "/admin/reports",
  adminHeldReviews: () => "/admin/held-reviews",
  /** Balances per professional, payouts and the ledger export. */
  adminPayouts: () => "/admin/payouts",
  /** Completed jobs, gross, commission and refunds per day or month. */
  adminRevenue: () => "/admin/revenue",
  adminReport: (id: string) => `/admin/reports/${encodeURIComponent(id)}`,
} as const;

/** The professional dashboard's sections, each one tap from the others (`?section=`). */
export const DASHBOARD_SECTIONS = ["requests", "jobs", "hours", "alerts", "location"] as const;
export type DashboardSection = (typeof DASHBOARD_SECTIONS)[number];

export type AdminBookingFilters = {
  status?: string;
  city?: string;
  professional?: string;
  customer?: string;
  who?: string;
};

/** Paths on which the public header is hidden (spec §2: admin login and panel). */
export function isAdminPath(pathname: string): boolean {
  return (
    pathname === paths.adminLogin() ||
    pathname === paths.adminPanel() ||
    pathname.startsWith("/admin/")
  );
}
