// @vitest-environment edge-runtime
/**
 * Access sweep: every public Convex function and every HTTP route, called as each role with valid
 * arguments, against the allow/deny table in access-table.ts.
 */
import { makeFunctionReference } from "convex/server";
import { beforeAll, describe, expect, test } from "vitest";
import type { Id } from "../convex/_generated/dataModel";
import { solveStamp } from "../convex/rules/signUpWork";
import { api } from "../convex/_generated/api";
import {
  PNG_BYTES,
  insertProfessional,
  modules,
  signUpDraft,
  storeUpload,
  withSession,
  type Caller,
  type TestConvex,
} from "../convex/test.setup";
import { FUNCTION_ACCESS, ROLES, ROUTE_ACCESS, type DrillRole } from "./access-table";
import { PASSWORD, buildFixtures, type Fixtures } from "./convex-fixtures";

type Accessor = Caller | TestConvex;
type Ctx = { f: Fixtures; role: DrillRole; as: Accessor };
type Call = (c: Ctx) => Promise<{ args: Record<string, unknown>; as?: Accessor }>;

const plain =
  (args: Record<string, unknown> | ((c: Ctx) => Record<string, unknown>)): Call =>
  async (c) => ({ args: typeof args === "function" ? args(c) : args });
const page = { paginationOpts: { numItems: 10, cursor: null } };
const onBooking =
  (status: Parameters<Fixtures["bookingIn"]>[0], extra: Record<string, unknown> = {}): Call =>
  async (c) => ({ args: { bookingId: await c.f.bookingIn(status), ...extra } });

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A browser PushSubscription's keys: a P-256 public key and a 16-byte secret. */
async function pushKeys() {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { p256dh: base64url(raw), auth: base64url(crypto.getRandomValues(new Uint8Array(16))) };
}

/** Valid arguments (and, where a call ends something, a throwaway caller) for every public function. */
const CALLS: Record<string, Call> = {
  // A successful sign-in ends the caller's current session (auth's createNewAndDeleteExistingSession),
  // so it runs on a throwaway session of the role's user.
  "auth:signIn": async (c) => ({
    args: {
      provider: "customer",
      params: { flow: "signIn", email: c.f.accounts.customerEmail, password: PASSWORD },
    },
    as: await c.f.freshSession(c.role),
  }),
  "auth:signOut": async (c) => ({ args: {}, as: await c.f.freshSession(c.role) }),
  "auth:isAuthenticated": plain({}),
  "catalog:categories": plain({}),
  "catalog:serviceNames": plain({ category: "electrical" }),
  "catalog:serviceDetails": plain((c) => ({
    category: "electrical",
    serviceName: c.f.service.name,
    location: "kathmandu",
  })),
  "catalog:search": plain({ text: "fan" }),
  "catalog:tileMarble": plain({}),
  "settings:get": plain({}),
  "contact:send": plain({
    name: "Drill Sender",
    email: "drill@example.np",
    message: "Hello from the access drill.",
  }),
  // a visitor asks with a sign-up draft of their own; signed-in users need none
  "files:generateUploadUrl": async (c) => ({
    args: c.role === "visitor" ? { draft: await signUpDraft(c.f.t) } : {},
  }),
  "signUpDrafts:create": async () => ({ args: { stamp: await solveStamp() } }),
  "professionals:search": plain({ specialty: "electrician", city: "kathmandu" }),
  "professionals:get": plain((c) => ({ professionalId: c.f.p.professionalId })),
  "professionals:me": plain({}),
  "professionals:setAvailability": plain({ available: true }),
  "professionals:setWorkingHours": plain({ hours: { start: 0, end: 1440 } }), // all day: later bookings:create calls stay in hours,
  // A verified professional may not replace documents: professionals call as one waiting for review.
  "professionals:resubmitDocuments": async (c) => {
    const waiting = await insertProfessional(c.f.t, { verified: false });
    const professional = c.role === "professional" || c.role === "otherProfessional";
    return {
      args: { trainingCertificate: await storeUpload(c.f.t, { userId: waiting.userId }) },
      ...(professional ? { as: (await withSession(c.f.t, waiting.userId)).as } : {}),
    };
  },
  "locations:update": async (c) => {
    await c.f.resetLocations();
    return { args: { longitude: 85.32, latitude: 27.71 } };
  },
  "locations:current": plain({}),
  "locations:forBooking": plain((c) => ({ bookingId: c.f.booking })),
  "locations:forActiveBookings": plain({}),
  // a new caller of the role each time: the fixture customer's open bookings would reach the request limits
  "bookings:create": async (c) => ({
    args: {
      professionalId: c.f.p.professionalId,
      serviceIds: [c.f.service._id],
      address: "Ward 2, Thamel",
      city: "kathmandu",
      scheduledFor: Date.now() + 10 * 3_600_000, // clear of the fixture jobs (rules/schedule.ts)
    },
    as: await c.f.freshCaller(c.role),
  }),
  "bookings:accept": onBooking("requested"),
  "bookings:reject": onBooking("requested"),
  "bookings:startTrip": onBooking("accepted"),
  "bookings:arrive": onBooking("en_route"),
  "bookings:complete": onBooking("in_progress"),
  "bookings:cancel": onBooking("accepted", { reason: "Plans changed" }),
  "bookings:forProfessional": plain(page),
  "bookings:forCustomer": plain(page),
  "bookings:get": plain((c) => ({ bookingId: c.f.booking })),
  "bookings:recentActivity": plain({}),
  "reviews:create": onBooking("completed", { rating: 5, comment: "Good work" }),
  "reviews:forProfessional": plain((c) => ({ professionalId: c.f.p.professionalId })),
  "notifications:list": plain(page),
  "push:config": plain({}),
  "push:subscribe": async (c) => ({
    args: { endpoint: `https://push.example.np/${c.role}`, keys: await pushKeys() },
  }),
  "push:unsubscribe": plain((c) => ({ endpoint: `https://push.example.np/${c.role}` })),
  "push:status": plain((c) => ({ endpoint: `https://push.example.np/${c.role}` })),
  "push:dashboardSignals": plain({}),
  "notifications:unreadCount": plain({}),
  "notifications:markRead": plain({}),
  "presence:heartbeat": plain({}),
  "presence:online": plain({}),
  "users:viewer": plain({}),
  "users:updateProfile": plain({
    name: "Same Name",
    phone: "9800000009",
    address: "Ward 1, Patan",
    zipCode: "44700",
  }),
  "users:exportMyData": plain({}),
  "users:deleteAccount": async (c) => ({ args: {}, as: await c.f.freshCaller(c.role) }),
  "admin:technicians": plain({}),
  "admin:technician": plain((c) => ({ professionalId: c.f.q.professionalId })),
  "admin:users": plain({}),
  "admin:stats": plain({}),
  "admin:verify": async (c) => {
    const fresh = await c.f.t.run(async (ctx) => {
      const pro = (await ctx.db.get("professionals", c.f.q.professionalId))!;
      const userId = await ctx.db.insert("users", { name: "To Verify", role: "professional" });
      return await ctx.db.insert("professionals", {
        ...stripSystem(pro),
        userId,
        verification: { status: "unverified" },
      });
    });
    return { args: { professionalId: fresh, decision: "verified" } };
  },
  "admin:setAvailability": plain((c) => ({
    professionalId: c.f.q.professionalId,
    available: true,
  })),
  "admin:updateSettings": plain({ bannerText: "Drill banner" }),
  "admin:messages": plain({}),
};

function stripSystem<T extends { _id: unknown; _creationTime: unknown }>(
  doc: T,
): Omit<T, "_id" | "_creationTime"> {
  const { _id, _creationTime, ...rest } = doc;
  void _id;
  void _creationTime;
  return rest;
}

type Outcome = "allow" | "deny" | `error: ${string}`;
/** Refusals; NOT_FOUND is how a resource of someone else's answers (as if it did not exist). */
const ACCESS_CODES = new Set(["UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND"]);
/** Queries that answer someone else's resource with null, as a missing one: null is their refusal. */
const NULL_HIDES = new Set(["bookings:get", "locations:forBooking"]);

function outcomeOf(error: unknown): Outcome {
  const data = (error as { data?: unknown }).data;
  const parsed = typeof data === "string" ? safeJson(data) : data;
  const code =
    typeof parsed === "object" && parsed !== null && "code" in parsed
      ? String(parsed.code)
      : undefined;
  if (code !== undefined && ACCESS_CODES.has(code)) return "deny";
  return `error: ${code ?? (error as Error).message?.split("\n")[0]}`;
}
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `module:export` of every public query, mutation and action, read from the modules themselves. */
async function publicFunctions(): Promise<
  { name: string; kind: "query" | "mutation" | "action" }[]
> {
  const found: { name: string; kind: "query" | "mutation" | "action" }[] = [];
  for (const [file, load] of Object.entries(modules)) {
    if (file.includes("_generated")) continue;
    const moduleName = file.replace(/^\.\//, "").replace(/\.[jt]s$/, "");
    const exports = (await load()) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      const fn = value as {
        isPublic?: boolean;
        isQuery?: boolean;
        isMutation?: boolean;
        isAction?: boolean;
      } | null;
      if (typeof fn !== "function" && (typeof fn !== "object" || fn === null)) continue;
      if (fn.isPublic !== true) continue;
      const kind = fn.isQuery
        ? "query"
        : fn.isMutation
          ? "mutation"
          : fn.isAction
            ? "action"
            : undefined;
      if (kind !== undefined) found.push({ name: `${moduleName}:${name}`, kind });
    }
  }
  return found.sort((x, y) => x.name.localeCompare(y.name));
}

let f: Fixtures;
beforeAll(async () => {
  f = await buildFixtures();
}, 60_000);

describe("access sweep", () => {
  test("every public function is in the table and each role gets exactly what the table says", async () => {
    const functions = await publicFunctions();
    const names = functions.map((x) => x.name);
    expect(
      names.filter((n) => !(n in FUNCTION_ACCESS)),
      "public functions without a table row",
    ).toEqual([]);
    expect(
      Object.keys(FUNCTION_ACCESS).filter((n) => !names.includes(n)),
      "table rows without a function",
    ).toEqual([]);

    const mismatches: string[] = [];
    let calls = 0;
    const tally = { allow: 0, deny: 0 };
    for (const { name, kind } of functions) {
      const build = CALLS[name];
      if (build === undefined) {
        mismatches.push(`${name}: no valid arguments in CALLS`);
        continue;
      }
      for (const role of ROLES) {
        const as = f.callers[role];
        const { args, as: override } = await build({ f, role, as });
        const caller = override ?? as;
        const ref = makeFunctionReference<typeof kind>(name);
        let outcome: Outcome;
        const expected = FUNCTION_ACCESS[name].includes(role) ? "allow" : "deny";
        try {
          const call = caller as unknown as Record<
            typeof kind,
            (r: unknown, a: unknown) => Promise<unknown>
          >;
          const result = await call[kind](ref, args);
          outcome =
            result === null && expected === "deny" && NULL_HIDES.has(name) ? "deny" : "allow";
        } catch (error) {
          outcome = outcomeOf(error);
        }
        calls++;
        if (outcome === "allow" || outcome === "deny") tally[outcome]++;
        if (outcome !== expected)
          mismatches.push(`${name} as ${role}: expected ${expected}, got ${outcome}`);
      }
    }
    console.log(
      `access sweep (functions): ${functions.length} functions × ${ROLES.length} roles = ${calls} calls (${tally.allow} allowed, ${tally.deny} refused), ${mismatches.length} mismatches`,
    );
    expect(mismatches).toEqual([]);
  }, 120_000);

  test("every HTTP route is in the table and each role gets exactly what the table says", async () => {
    const http = (await import("../convex/http")).default;
    const routes = http.getRoutes().map(([path, method]) => `${method} ${path}`);
    const keyOf = (r: string) => r.replace(/^OPTIONS /, "GET ");
    const withoutRow = routes.filter((r) => !r.startsWith("OPTIONS ") && !(r in ROUTE_ACCESS));
    expect(withoutRow, "routes without a table row").toEqual([]);
    expect(
      Object.keys(ROUTE_ACCESS).filter((r) => !routes.includes(r)),
      "table rows without a route",
    ).toEqual([]);

    const mismatches: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const [method, pattern] = route.split(" ") as [string, string];
      for (const role of ROLES) {
        const { path, init, as } = await httpCall(f, method, pattern, role);
        const response = await (as ?? f.callers[role]).fetch(path, { ...init, method });
        calls++;
        const expectation = method === "OPTIONS" ? { everyone: 204 } : ROUTE_ACCESS[keyOf(route)];
        let ok: boolean;
        let expectedText: string;
        if (Array.isArray(expectation)) {
          const allowed = expectation.includes(role);
          // 404: someone else's resource answers as a missing one
          expectedText = allowed ? "2xx" : "401/403/404";
          ok = allowed
            ? response.status >= 200 && response.status < 300
            : [401, 403, 404].includes(response.status);
        } else {
          expectedText = String(expectation.everyone);
          ok = response.status === expectation.everyone;
        }
        if (!ok) {
          const body = (await response.text()).slice(0, 160);
          mismatches.push(
            `${method} ${path} as ${role}: expected ${expectedText}, got ${response.status} ${body}`,
          );
        }
      }
    }
    console.log(
      `access sweep (HTTP): ${routes.length} routes × ${ROLES.length} roles = ${calls} requests, ${mismatches.length} mismatches`,
    );
    expect(mismatches).toEqual([]);
  }, 120_000);
});

describe("signed-out tokens", () => {
  test("after POST /api/signout, the token's session is refused (401) by every route that needs a signed-in caller", async () => {
    const http = (await import("../convex/http")).default;
    const mismatches: string[] = [];
    let calls = 0;
    for (const [pattern, method] of http.getRoutes()) {
      const expectation = ROUTE_ACCESS[`${method} ${pattern}`];
      if (!Array.isArray(expectation) || expectation.includes("visitor")) continue;
      for (const role of expectation) {
        const ended = await f.freshSession(role);
        expect((await ended.fetch("/api/signout", { method: "POST" })).status).toBe(200);
        const { path, init } = await httpCall(f, method, pattern, role);
        const response = await ended.fetch(path, { ...init, method });
        calls++;
        if (response.status !== 401) {
          mismatches.push(
            `${method} ${path} as ${role} after sign-out: ${response.status} ${(await response.text()).slice(0, 120)}`,
          );
        }
      }
    }
    console.log(
      `access sweep (signed-out tokens): ${calls} requests, ${mismatches.length} accepted`,
    );
    expect(calls).toBeGreaterThan(5);
    expect(mismatches).toEqual([]);
  }, 60_000);
});

const json = (body: unknown): RequestInit => ({
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** A registration with a solved proof of work: the sweep registers more often than stamp-less ones share. */
async function registrationForm(professional: boolean): Promise<FormData> {
  const form = new FormData();
  const fields: Record<string, string> = {
    fullname: "Drill Register",
    email: `reg.${Math.random().toString(36).slice(2, 10)}@example.np`,
    phoneNumber: "9812345678",
    password: "secret pass",
    address: "Ward 7, Biratnagar",
    zipCode: "56613",
    stamp: await solveStamp(),
  };
  if (professional)
    Object.assign(fields, { specialty: "Plumber", city: "Pokhara", state: "Gandaki" });
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const png = () => new Blob([PNG_BYTES as BlobPart], { type: "image/png" });
  if (professional)
    for (const k of ["citizenshipFront", "citizenshipBack", "trainingCertificate"])
      form.set(k, png(), `${k}.png`);
  return form;
}

/** A valid request to a route (pattern from getRoutes, "*" prefixes filled in). */
async function httpCall(
  f: Fixtures,
  method: string,
  pattern: string,
  role: DrillRole,
): Promise<{ path: string; init: RequestInit; as?: Accessor }> {
  const body = (init: RequestInit) =>
    method === "POST" || method === "PUT" || method === "PATCH" ? init : {};
  switch (pattern) {
    // Logins run on throwaway sessions: a successful sign-in ends the session of the token it carries.
    case "/api/admin/login":
      return {
        path: pattern,
        init: body(json({ username: "drillboss", password: f.accounts.admin.password })),
        as: await f.freshSession(role),
      };
    case "/api/users/login":
      return {
        path: pattern,
        init: body(json({ email: f.accounts.customerEmail, password: PASSWORD })),
        as: await f.freshSession(role),
      };
    case "/api/technicians/login":
      return {
        path: pattern,
        init: body(json({ email: f.accounts.professionalEmail, password: PASSWORD })),
        as: await f.freshSession(role),
      };
    // so does registering (sign-up signs in, then the route ends that new session)
    case "/api/users/register":
      return {
        path: pattern,
        init: body({ body: await registrationForm(false) }),
        as: await f.freshSession(role),
      };
    case "/api/technicians/register":
      return {
        path: pattern,
        init: body({ body: await registrationForm(true) }),
        as: await f.freshSession(role),
      };
    case "/api/signout":
      return { path: pattern, init: {}, as: await f.freshSession(role) };
    case "/api/technicians/search":
      return { path: `${pattern}?specialty=Electrician&city=Kathmandu`, init: {} };
    case "/api/services/*":
      return {
        path:
          role.length % 2 === 0
            ? "/api/services/category/electrical"
            : `/api/services/electrical/${encodeURIComponent(f.service.name)}/kathmandu`,
        init: {},
      };
    case "/api/current-location": {
      await f.resetLocations();
      const userId: Id<"users"> | "" = role === "visitor" ? "" : f.userIds[role];
      return {
        path: pattern,
        init: body(json({ userId: userId || "nobody", longitude: 85.31, latitude: 27.7 })),
      };
    }
    case "/api/bookings/*":
      if (method === "PUT") {
        return {
          path: `/api/bookings/${await f.bookingIn("requested")}`,
          init: body(json({ status: "accepted" })),
        };
      }
      return { path: `/api/bookings/${f.a.userId}`, init: body(json({})) };
    case "/api/uploads": {
      const url = new URL(
        role === "visitor"
          ? await f.t.mutation(api.files.generateUploadUrl, { draft: await signUpDraft(f.t) })
          : await f.callers[role].mutation(api.files.generateUploadUrl, {}),
      );
      return {
        path: `${url.pathname}${url.search}`,
        init: body({ headers: { "Content-Type": "image/png" }, body: PNG_BYTES as BodyInit }),
      };
    }
    case "/api/*":
      return { path: "/api/no-such-endpoint", init: {} };
    default:
      return { path: pattern, init: body(json({})) };
  }
}
