/**
 * Who may call what: the expected allow list of every public Convex function and every HTTP route.
 * drills/access.test.ts calls each of them as each role (with valid arguments, against fixtures
 * where "customer" and "professional" share a booking) and fails on any difference — an
 * unexpected allow, or an expected allow that is refused. A function or route missing here fails too.
 *
 * Roles: "customer" (A) and "professional" (P) are the two sides of the fixture booking; "otherCustomer"
 * and "otherProfessional" have nothing to do with it; "visitor" is signed out.
 *
 * FUNCTION_WRITES and ROUTE_WRITES say which tables an allowed call may change and how far
 * (lib/ownership.ts): any change elsewhere, or by a refused call, fails the drill.
 */
import type { WriteScope } from "./lib/ownership";

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
  "catalog:setJobMinutes": ADMIN,
  "settings:get": ALL,
  "contact:send": ALL,
  "files:generateUploadUrl": ALL, // professionals upload documents before their account exists (visitors with a draft)
  "signUpDrafts:create": ALL,
  // forgot password: anyone may ask for a code; it goes to the account's own address
  "passwordReset:request": ALL,
  // sign-in by SMS code: anyone may ask; it goes to a verified number's own account only
  "signInCodes:request": ALL,
  "passwordChange:change": SIGNED_IN,
  "devices:endedSession": ALL,
  "devices:seen": SIGNED_IN,
  "devices:list": SIGNED_IN,
  "devices:signOut": SIGNED_IN,
  "devices:signOutOthers": SIGNED_IN,
  // verified email and phone: a code to the signed-in account's own address
  "contactVerification:sendCode": SIGNED_IN,
  "contactVerification:confirm": SIGNED_IN,
  // two-factor sign-in: each admin sets up and keeps their own authenticator
  "twoFactor:status": ADMIN,
  "twoFactor:begin": ADMIN,
  "twoFactor:confirm": ADMIN,
  "twoFactor:replaceRecovery": ADMIN,
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
  "locations:onMap": ALL,
  "locations:marker": ALL,
  "locations:forBooking": ["customer", "professional", "admin"],
  "locations:forActiveBookings": CUSTOMERS,
  // bookings (on the fixture booking between customer and professional)
  "bookings:create": CUSTOMERS,
  "bookings:freeSlots": CUSTOMERS,
  "bookings:accept": ITS_PROFESSIONAL,
  "bookings:reject": ITS_PROFESSIONAL,
  "bookings:startTrip": ITS_PROFESSIONAL,
  "bookings:arrive": ITS_PROFESSIONAL,
  "bookings:start": ITS_PROFESSIONAL,
  "bookings:confirmStart": ["customer"],
  "bookings:markNoShow": ["customer"],
  "reschedules:freeSlots": ["customer"],
  "reschedules:propose": ["customer"],
  "reschedules:accept": ITS_PROFESSIONAL,
  "reschedules:decline": ITS_PROFESSIONAL,
  "reschedules:withdraw": ["customer"],
  "noShows:forProfessional": ADMIN,
  "noShows:clearHold": ADMIN,
  "bookings:complete": ITS_PROFESSIONAL,
  "bookings:cancel": ["customer", "professional"],
  "bookings:confirmDone": ["customer"],
  "bookings:forProfessional": PROFESSIONALS,
  "bookings:forCustomer": CUSTOMERS,
  "bookings:get": ["customer", "professional", "admin"],
  "bookings:recentActivity": PROFESSIONALS,
  // a booking's bill: its two sides and admins read it (null for others); its professional adds
  // items on site, its customer answers them
  "bills:get": ["customer", "professional", "admin"],
  "bills:propose": ITS_PROFESSIONAL,
  "bills:decide": ["customer"],
  // cash: the booking's professional records it, its customer confirms or disputes it
  "cash:markReceived": ITS_PROFESSIONAL,
  "cash:confirm": ["customer"],
  "cash:dispute": ["customer"],
  // on a booking cancelled since, its customer says the cash recorded was never paid
  "cash:notPaid": ["customer"],
  // a paid booking's receipt: its two sides and admins (null for others)
  "receipts:get": ["customer", "professional", "admin"],
  // reviews
  "reviews:create": ["customer"],
  "reviews:forProfessional": ALL,
  "reviews:page": ALL,
  "reviews:testimonials": ALL,
  "reviews:reply": ITS_PROFESSIONAL,
  // notifications, presence
  "notifications:list": SIGNED_IN,
  "notifications:unreadCount": SIGNED_IN,
  "notifications:markRead": SIGNED_IN,
  "presence:heartbeat": SIGNED_IN,
  "presence:leave": SIGNED_IN,
  "presence:online": ADMIN,
  // users
  "users:viewer": ALL,
  "users:accountStatus": ALL,
  "users:updateProfile": SIGNED_IN,
  "users:setLanguage": SIGNED_IN,
  "users:exportMyData": SIGNED_IN,
  "users:deleteAccount": SIGNED_IN,
  // push alerts: for customers and professionals, on their own devices
  "push:config": ALL,
  "push:subscribe": [...CUSTOMERS, ...PROFESSIONALS],
  "push:unsubscribe": SIGNED_IN,
  "push:status": SIGNED_IN,
  "push:dashboardSignals": PROFESSIONALS,
  // admin
  "admin:technicians": ADMIN,
  "admin:technician": ADMIN,
  "admin:users": ADMIN,
  "admin:stats": ADMIN,
  "admin:verify": ADMIN,
  "admin:setAvailability": ADMIN,
  "admin:updateSettings": ADMIN,
  "admin:messages": ADMIN,
  "admin:unreadMessages": ADMIN,
  "admin:setMessageHandled": ADMIN,
  "adminBookings:list": ADMIN,
  "adminBookings:get": ADMIN,
  "adminBookings:cancel": ADMIN,
  "adminAccounts:get": ADMIN,
  "adminAccounts:suspend": ADMIN,
  "adminAccounts:restore": ADMIN,
  "adminReports:list": ADMIN,
  "adminReports:openCount": ADMIN,
  "adminReports:get": ADMIN,
  "adminReports:resolve": ADMIN,
  "adminReviews:held": ADMIN,
  "adminReviews:publish": ADMIN,
  "adminReviews:remove": ADMIN,
  // reports: the two sides of the fixture booking report it; everyone signed in may ask for their own
  "reports:create": ["customer", "professional"],
  "reports:mine": SIGNED_IN,
  // a booking's conversation: its two sides write; anyone signed in may ask (and sees only their own);
  // an admin opens a reported booking's conversation
  "chat:messages": SIGNED_IN,
  "chat:state": SIGNED_IN,
  "chat:unread": SIGNED_IN,
  "chat:send": ["customer", "professional"],
  "chat:markRead": ["customer", "professional"],
  "chat:typing": ["customer", "professional"],
  "chat:openAsAdmin": ADMIN,
  // wallet payments: the booking's customer pays it and reports returns; others see nothing
  "wallets:start": ["customer"],
  "wallets:attempt": CUSTOMERS,
  "wallets:latest": CUSTOMERS,
  "wallets:esewaReturned": ["customer"],
  "wallets:khaltiReturned": ["customer"],
  // a professional's own earnings; nobody else's
  "earnings:jobs": PROFESSIONALS,
  "earnings:summary": PROFESSIONALS,
  // paying professionals out and the ledger export: admins only
  "payouts:balances": ADMIN,
  "payouts:record": ADMIN,
  "payouts:history": ADMIN,
  "payouts:ledgerExport": ADMIN,
  // cash commission a professional hands over: admins record and list it
  "settlements:record": ADMIN,
  "settlements:history": ADMIN,
  // disputed cash: admins see and settle it
  "cashDisputes:open": ADMIN,
  "cashDisputes:settle": ADMIN,
  // refunds of cancelled paid bookings: admins see and record them
  "refunds:due": ADMIN,
  "refunds:markRefunded": ADMIN,
  "revenue:summary": ADMIN,
  // "nearest available now": customers ask (and see only their own); the offered professional answers
  "dispatch:request": CUSTOMERS,
  "dispatch:cancel": ["customer"],
  "dispatch:redispatch": ["customer"],
  "dispatch:get": CUSTOMERS,
  "dispatch:myOffers": PROFESSIONALS,
  "dispatch:accept": ITS_PROFESSIONAL,
  "dispatch:decline": ITS_PROFESSIONAL,
};

/**
 * Functions that may end a fixture user's sessions when the hostile-id sweep hands them that user's
 * id (an admin suspending an account): the sweep reinstates the fixture users after each such call.
 */
export const ENDS_SESSIONS = new Set(["adminAccounts:suspend"]);

const TWIN: Partial<Record<DrillRole, DrillRole>> = {
  customer: "otherCustomer",
  otherCustomer: "customer",
  professional: "otherProfessional",
  otherProfessional: "professional",
};

/**
 * Whether a call with ids chosen by the drill may write at all: the role may call the function,
 * or its twin may (the twin differs only in whose fixtures it holds, so its own documents are
 * fair game; FUNCTION_WRITES' "own" scopes still refuse everyone else's).
 */
export function mayWriteWithAnyIds(name: string, role: DrillRole): boolean {
  const roles = FUNCTION_ACCESS[name] ?? [];
  const twin = TWIN[role];
  return roles.includes(role) || (twin !== undefined && roles.includes(twin));
}

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

type Writes = Partial<Record<string, WriteScope>>;

/** Counters that belong to nobody: rate-limit windows, and sign-up drafts (held by a secret token). */
const COUNTERS: Writes = { rateLimits: "any" };
/** A booking step: the booking and its event are the two parties'; the other side is notified (and alerted by push). */
const BOOKING_STEP: Writes = {
  bookings: "own",
  bookingEvents: "own",
  notifications: "new",
  _scheduled_functions: "new",
};
/** Signing in: a session and refresh token for the account (someone else's when a visitor signs in), the caller's own session ended, the account's tries (model/rateLimit.ts). */
const SIGN_IN: Writes = {
  authSessions: "new",
  authRefreshTokens: "new",
  authRateLimits: "any",
  rateLimits: "any",
};
/** Signing up: a new account with its profile, documents and draft. */
const SIGN_UP: Writes = {
  ...SIGN_IN,
  ...COUNTERS,
  users: "new",
  authAccounts: "new",
  professionals: "new",
  uploads: "new",
  uploadGrants: "any",
  signUpDrafts: "any",
  _storage: "new",
  _scheduled_functions: "new",
};

/**
 * `module:function` → the tables an allowed call may change and how far (lib/ownership.ts); a
 * function without a row changes nothing. Queries cannot write at all.
 */
/**
 * A professional who stops being dispatchable (offline, unavailable, unverified) leaves their open
 * offers: each request goes to the next nearest (new offers, their timers, their alerts), or ends
 * unmatched and its customer is told.
 */
const LEAVES_OFFERS: Writes = {
  dispatchOffers: "any",
  dispatchRequests: "any",
  notifications: "new",
  _scheduled_functions: "new",
};

export const FUNCTION_WRITES: Record<string, Writes> = {
  "auth:signIn": SIGN_IN,
  "auth:signOut": { authSessions: "own", authRefreshTokens: "own", sessionDevices: "own" },
  "contact:send": { ...COUNTERS, contactMessages: "new" },
  "files:generateUploadUrl": { ...COUNTERS, uploadGrants: "new", signUpDrafts: "any" },
  "signUpDrafts:create": { ...COUNTERS, signUpDrafts: "new" },
  "passwordReset:request": { ...COUNTERS, accountCodes: "any", _scheduled_functions: "new" },
  "signInCodes:request": { ...COUNTERS, accountCodes: "any", _scheduled_functions: "new" },
  "passwordChange:change": {
    ...COUNTERS,
    authAccounts: "own",
    authSessions: "own",
    authRefreshTokens: "own",
    authRateLimits: "own",
    accountCodes: "own",
    sessionDevices: "own",
    _scheduled_functions: "new",
  },
  "devices:seen": { sessionDevices: "own" },
  "contactVerification:sendCode": {
    ...COUNTERS,
    accountCodes: "own",
    _scheduled_functions: "new",
  },
  "contactVerification:confirm": { accountCodes: "own", users: "own" },
  "twoFactor:begin": { twoFactor: "own" },
  "twoFactor:confirm": {
    ...COUNTERS,
    twoFactor: "own",
    authSessions: "own",
    authRefreshTokens: "own",
    sessionDevices: "own",
  },
  "twoFactor:replaceRecovery": { ...COUNTERS, twoFactor: "own" },
  "devices:signOut": { authSessions: "own", authRefreshTokens: "own", sessionDevices: "own" },
  "devices:signOutOthers": {
    authSessions: "own",
    authRefreshTokens: "own",
    sessionDevices: "own",
  },
  "professionals:setAvailability": {
    professionals: "own",
    mapMarkers: "own",
    dispatchSpots: "own",
    liveLocations: "own",
    // last: the drill runs calls in the order of their writes, going offline after the offers
    ...LEAVES_OFFERS,
  },
  "professionals:setWorkingHours": { professionals: "own" },
  "professionals:resubmitDocuments": {
    professionals: "own",
    mapMarkers: "own",
    dispatchSpots: "own",
    liveLocations: "own",
    uploads: "own",
    uploadGrants: "own",
    _storage: "own",
    _scheduled_functions: "own",
  },
  "locations:update": { liveLocations: "own", mapMarkers: "own", dispatchSpots: "own" },
  // the booking's bill opens with its confirmed price
  "bookings:create": { ...BOOKING_STEP, ...COUNTERS, billLines: "new" },
  "bookings:accept": BOOKING_STEP,
  "bookings:reject": BOOKING_STEP,
  "bookings:startTrip": BOOKING_STEP,
  // arriving makes the booking's start code; starting ends it
  "bookings:arrive": { ...BOOKING_STEP, startCodes: "own" },
  "bookings:start": { ...BOOKING_STEP, startCodes: "own" },
  "bookings:confirmStart": { ...BOOKING_STEP, startCodes: "own" },
  // the professional gets a strike (and, at the third in the window, a hold)
  "bookings:markNoShow": { ...BOOKING_STEP, noShowStrikes: "own", professionals: "own" },
  "noShows:clearHold": { noShowStrikes: "any", professionals: "any" },
  // a proposal of the booking's, the other side told; accepting moves the booking
  "reschedules:propose": { reschedules: "own", notifications: "new", _scheduled_functions: "new" },
  "reschedules:accept": {
    bookings: "own",
    reschedules: "own",
    notifications: "new",
    _scheduled_functions: "new",
  },
  "reschedules:decline": { reschedules: "own", notifications: "new", _scheduled_functions: "new" },
  "reschedules:withdraw": { reschedules: "own", notifications: "new", _scheduled_functions: "new" },
  // a finished job counts towards its service's bookings
  "bookings:complete": { ...BOOKING_STEP, services: "any" },
  // a late cancellation bills its fee
  "bookings:cancel": { ...BOOKING_STEP, billLines: "own" },
  // an admin cancels any booking; both sides are told
  "adminBookings:cancel": {
    bookings: "any",
    bookingEvents: "any",
    notifications: "new",
    _scheduled_functions: "new",
  },
  "bookings:confirmDone": { bookings: "own" },
  // the other side is told of an item to answer, or of the answer
  "bills:propose": { billLines: "own", notifications: "new", _scheduled_functions: "new" },
  "bills:decide": { billLines: "own", notifications: "new", _scheduled_functions: "new" },
  // the customer is asked to confirm; the automatic confirmation is scheduled on the payment
  "cash:markReceived": { payments: "own", notifications: "new", _scheduled_functions: "new" },
  // a payout row and its ledger transaction, for any professional, who is told
  "payouts:record": { payouts: "any", ledgerEntries: "any", notifications: "new" },
  // a settlement row and its ledger transaction, for any professional, who is told
  "settlements:record": { settlements: "new", ledgerEntries: "new", notifications: "new" },
  // settled as paid: booked with a receipt; the dispute's report is resolved; both sides are told
  "refunds:markRefunded": { refunds: "any", ledgerEntries: "new", notifications: "new" },
  "cashDisputes:settle": {
    payments: "any",
    ledgerEntries: "any",
    receipts: "any",
    reports: "any",
    notifications: "new",
  },
  // confirmed cash is booked in the ledger and gets a receipt; the professional is told
  "cash:confirm": { payments: "own", ledgerEntries: "own", receipts: "own", notifications: "new" },
  // cash never paid on a cancelled booking is waived; the professional is told
  "cash:notPaid": { payments: "own", notifications: "new" },
  // a dispute is a report for the admin
  "cash:dispute": { payments: "own", reports: "own", rateLimits: "any", notifications: "new" },
  // the review updates the reviewed professional's rating
  "reviews:create": { ...BOOKING_STEP, ...COUNTERS, reviews: "own", professionals: "any" },
  // the reviewed professional answers once
  "reviews:reply": { reviews: "own" },
  "notifications:markRead": { notifications: "own" },
  // coming online makes a professional dispatchable (model/dispatchSpots.ts)
  "presence:heartbeat": { presence: "own", _scheduled_functions: "own", dispatchSpots: "own" },
  "presence:leave": {
    presence: "own",
    liveLocations: "own",
    mapMarkers: "own",
    dispatchSpots: "own",
    // last: the drill runs calls in the order of their writes, going offline after the offers
    ...LEAVES_OFFERS,
  },
  "users:setLanguage": { users: "own" },
  "push:subscribe": { pushSubscriptions: "own" },
  "push:unsubscribe": { pushSubscriptions: "own" },
  "users:updateProfile": {
    users: "own",
    mapMarkers: "own",
    dispatchSpots: "own",
    liveLocations: "own",
    uploads: "own",
    uploadGrants: "own",
    _storage: "own",
    _scheduled_functions: "own",
  },
  // everything of the account's; open requests are cancelled and the other side told
  "users:deleteAccount": {
    ...BOOKING_STEP,
    ...COUNTERS,
    users: "own",
    authSessions: "own",
    sessionDevices: "own",
    authAccounts: "own",
    authRefreshTokens: "own",
    professionals: "own",
    liveLocations: "own",
    mapMarkers: "own",
    dispatchSpots: "own",
    presence: "own",
    uploads: "own",
    uploadGrants: "own",
    pushSubscriptions: "own",
    twoFactor: "own",
    _storage: "own",
  },
  "admin:verify": {
    professionals: "any",
    mapMarkers: "any",
    dispatchSpots: "any",
    liveLocations: "any",
    notifications: "any",
    _scheduled_functions: "any",
    // unverified, they leave their open offers (LEAVES_OFFERS)
    dispatchOffers: "any",
    dispatchRequests: "any",
  },
  "admin:setAvailability": {
    professionals: "any",
    mapMarkers: "any",
    dispatchSpots: "any",
    liveLocations: "any",
    // last: the drill runs calls in the order of their writes, going offline after the offers
    ...LEAVES_OFFERS,
  },
  "admin:updateSettings": { settings: "any" },
  "catalog:setJobMinutes": { services: "any" },
  "admin:setMessageHandled": { contactMessages: "any" },
  // the account's sessions end, its position goes, its open bookings are cancelled and both sides told
  "adminAccounts:suspend": {
    bookings: "any",
    // a job under way that was paid is owed back to its customer
    refunds: "new",
    ledgerEntries: "new",
    startCodes: "any",
    bookingEvents: "new",
    notifications: "new",
    _scheduled_functions: "new",
    users: "any",
    accountEvents: "any",
    authSessions: "any",
    sessionDevices: "any",
    authRefreshTokens: "any",
    presence: "any",
    liveLocations: "any",
    mapMarkers: "any",
    dispatchSpots: "any",
    // a suspended professional's open offers go to the next nearest; a customer's search ends
    dispatchOffers: "any",
    dispatchRequests: "any",
    pushSubscriptions: "any",
  },
  "adminAccounts:restore": { users: "any", accountEvents: "any", dispatchSpots: "any" },
  "adminReports:resolve": { reports: "any" },
  "adminReviews:publish": { reviews: "any", professionals: "any", reviewDecisions: "any" },
  "adminReviews:remove": { reviews: "any", professionals: "any", reviewDecisions: "any" },
  "reports:create": { reports: "own", rateLimits: "any" },
  // the reader's unread count goes up with every message
  "chat:send": {
    chatMessages: "own",
    chatMembers: "any",
    chatTyping: "own",
    rateLimits: "any",
    _scheduled_functions: "new",
  },
  "chat:markRead": { chatMembers: "own" },
  "chat:typing": { chatTyping: "own" },
  "chat:openAsAdmin": { chatAdminReads: "new" },
  "wallets:start": { ...COUNTERS, paymentAttempts: "own", _scheduled_functions: "own" },
  "wallets:esewaReturned": { ...COUNTERS, paymentAttempts: "own", _scheduled_functions: "own" },
  "wallets:khaltiReturned": { ...COUNTERS, paymentAttempts: "own", _scheduled_functions: "own" },
  // offers go to the nearest professionals, who are told; the search's timers are scheduled
  "dispatch:request": {
    dispatchRequests: "own",
    dispatchOffers: "new",
    notifications: "new",
    _scheduled_functions: "new",
  },
  "dispatch:cancel": { dispatchRequests: "own", dispatchOffers: "any", notifications: "new" },
  // the no-show's job as a new search of the customer's, offered to others
  "dispatch:redispatch": {
    dispatchRequests: "own",
    dispatchOffers: "new",
    notifications: "new",
    _scheduled_functions: "new",
  },
  // the booking is made with its bill; the other offers are marked taken and the customer told
  "dispatch:accept": {
    bookings: "new",
    bookingEvents: "new",
    billLines: "new",
    dispatchOffers: "any",
    dispatchRequests: "any",
    notifications: "new",
    _scheduled_functions: "new",
  },
  // the next nearest is offered it, or the search ends and the customer is told
  "dispatch:decline": {
    dispatchOffers: "any",
    dispatchRequests: "any",
    notifications: "new",
    _scheduled_functions: "new",
  },
};

/** Route (as in ROUTE_ACCESS) → the tables an allowed request may change. */
export const ROUTE_WRITES: Record<string, Writes> = {
  "POST /api/admin/login": SIGN_IN,
  "POST /api/users/login": SIGN_IN,
  "POST /api/technicians/login": SIGN_IN,
  "POST /api/users/register": SIGN_UP,
  "POST /api/technicians/register": SIGN_UP,
  "POST /api/signout": { authSessions: "own", authRefreshTokens: "own", sessionDevices: "own" },
  "POST /api/current-location": { liveLocations: "own", mapMarkers: "own", dispatchSpots: "own" },
  "PUT /api/bookings/*": BOOKING_STEP,
  // the grant is found by its secret token (a visitor's belongs to a draft, which is nobody's)
  "POST /api/uploads": { uploadGrants: "any", _storage: "new" },
};

/**
 * Tables whose every document an admin may know exists: the admin panel lists them all, so an
 * admin's refusal may say why (a completed booking cannot be cancelled, a professional whose phone is
 * not verified cannot be verified) rather than "not found".
 */
export const ADMIN_LISTED_TABLES: ReadonlySet<string> = new Set(["bookings", "professionals"]);

/**
 * Documents anyone may know exist, so an id of one may answer differently from a missing id (a
 * verified professional is on the public search; the catalog is public). Every other document of
 * someone else's must answer exactly as a missing one.
 */
export const PUBLIC_DOCUMENTS: Record<string, (doc: Record<string, unknown>) => boolean> = {
  professionals: (doc) => (doc.verification as { status: string }).status === "verified",
  services: () => true,
  serviceCategories: () => true,
  settings: () => true,
};
