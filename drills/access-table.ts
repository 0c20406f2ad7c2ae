/**
 * Who may call what: the expected allow list of every public Convex function and every HTTP route.
 * drills/access.test.ts calls each of them as each role (with valid arguments, against fixtures
 * where "customer" and "professional" share a booking) and fails on any difference — an
 * unexpected allow, or an expected allow that is refused. A function or route missing here fails too.
 *
 * Roles: "customer" (A) and "professional" (P) are the two sides of the fixture booking; "otherCustomer"
 * and "otherProfessional" have nothing to do with it; "visitor" is signed out.
 */
export const ROLES = [
  "visitor",
  "customer",
  "otherCustomer",
  "professional",
  "otherProfessional",
  "admin",
] as const;
export type DrillRole = (typeof ROLES)[number];

const ALL: DrillRole[] = [...ROLES];
const SIGNED_IN: DrillRole[] = [
  "customer",
  "otherCustomer",
  "professional",
  "otherProfessional",
  "admin",
];
const CUSTOMERS: DrillRole[] = ["customer", "otherCustomer"];
const PROFESSIONALS: DrillRole[] = ["professional", "otherProfessional"];
const ADMIN: DrillRole[] = ["admin"];
/** The fixture booking's professional only. */
const ITS_PROFESSIONAL: DrillRole[] = ["professional"];

/** `module:function` → roles allowed to call it. Everyone else must be refused (UNAUTHENTICATED/FORBIDDEN). */
export const FUNCTION_ACCESS: Record<string, DrillRole[]> = {
  // auth
  "auth:signIn": ALL,
  "auth:signOut": ALL,
  "auth:isAuthenticated": ALL,
  // catalog, settings, contact: public
  "catalog:categories": ALL,
  "catalog:serviceNames": ALL,
  "catalog:serviceDetails": ALL,
  "catalog:search": ALL,
  "catalog:tileMarble": ALL,
  "settings:get": ALL,
  "contact:send": ALL,
  "files:generateUploadUrl": ALL, // professionals upload documents before their account exists (visitors with a draft)
  "signUpDrafts:create": ALL,
  // professionals
  "professionals:search": ALL,
  "professionals:get": ALL,
  "professionals:me": PROFESSIONALS,
  "professionals:setAvailability": PROFESSIONALS,
  "professionals:setWorkingHours": PROFESSIONALS,
  "professionals:resubmitDocuments": PROFESSIONALS,
  // locations
  "locations:update": PROFESSIONALS,
  "locations:current": ALL,
  "locations:forBooking": ["customer", "professional", "admin"],
  "locations:forActiveBookings": CUSTOMERS,
  // bookings (on the fixture booking between customer and professional)
  "bookings:create": CUSTOMERS,
  "bookings:accept": ITS_PROFESSIONAL,
  "bookings:reject": ITS_PROFESSIONAL,
  "bookings:startTrip": ITS_PROFESSIONAL,
  "bookings:arrive": ITS_PROFESSIONAL,
  "bookings:complete": ITS_PROFESSIONAL,
  "bookings:cancel": ["customer", "professional"],
  "bookings:forProfessional": PROFESSIONALS,
  "bookings:forCustomer": CUSTOMERS,
  "bookings:get": ["customer", "professional", "admin"],
  "bookings:recentActivity": PROFESSIONALS,
  // reviews
  "reviews:create": ["customer"],
  "reviews:forProfessional": ALL,
  // notifications, presence
  "notifications:list": SIGNED_IN,
  "notifications:unreadCount": SIGNED_IN,
  "notifications:markRead": SIGNED_IN,
  "presence:heartbeat": SIGNED_IN,
  "presence:online": ADMIN,
  // users
  "users:viewer": ALL,
  "users:updateProfile": SIGNED_IN,
  // push alerts: customers and professionals, each on their own devices
  "push:config": ALL,
  "push:subscribe": [...CUSTOMERS, ...PROFESSIONALS],
  "push:unsubscribe": SIGNED_IN,
  "push:status": SIGNED_IN,
  "push:dashboardSignals": PROFESSIONALS,
  "users:exportMyData": SIGNED_IN,
  "users:deleteAccount": SIGNED_IN,
  // admin
  "admin:technicians": ADMIN,
  "admin:technician": ADMIN,
  "admin:users": ADMIN,
  "admin:stats": ADMIN,
  "admin:verify": ADMIN,
  "admin:setAvailability": ADMIN,
  "admin:updateSettings": ADMIN,
  "admin:messages": ADMIN,
};

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Every route of convex/http.ts, as "<METHOD> <path or prefix*>", → roles allowed (a 2xx), or a status
 * everyone gets whatever their role (405 for a method the path does not serve, 404 for the fallback).
 */
export type RouteExpectation = DrillRole[] | { everyone: number };

const apiPaths: Record<string, Partial<Record<HttpMethod, DrillRole[]>>> = {
  "/api/admin/login": { POST: ALL },
  "/api/users/login": { POST: ALL },
  "/api/technicians/login": { POST: ALL },
  "/api/users/register": { POST: ALL },
  "/api/technicians/register": { POST: ALL },
  "/api/signout": { POST: SIGNED_IN },
  "/api/technicians": { GET: ADMIN },
  "/api/technicians/": { GET: ADMIN },
  "/api/technicians/search": { GET: ALL },
  "/api/services/*": { GET: ALL },
  "/api/current-locations": { GET: ALL },
  "/api/current-location": { POST: PROFESSIONALS }, // each for their own userId
  "/api/uploads": { POST: ALL }, // the URLs files:generateUploadUrl hands out, each for its caller
  "/api/bookings/*": { GET: ["customer", "admin"], PUT: ITS_PROFESSIONAL }, // GET of the customer's list; PUT answers the fixture request
};

export const ROUTE_ACCESS: Record<string, RouteExpectation> = {
  "GET /.well-known/openid-configuration": ALL,
  "GET /.well-known/jwks.json": ALL,
  ...Object.fromEntries(
    Object.entries(apiPaths).flatMap(([path, methods]) =>
      HTTP_METHODS.map((m) => [`${m} ${path}`, methods[m] ?? { everyone: 405 }] as const),
    ),
  ),
  // the JSON 404 for every other /api/* path
  ...Object.fromEntries(HTTP_METHODS.map((m) => [`${m} /api/*`, { everyone: 404 }] as const)),
};
