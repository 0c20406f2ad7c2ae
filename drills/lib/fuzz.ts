/**
 * Bad-input fuzzer for every /api/* route of convex/http.ts, over real HTTP against a local backend's
 * site port. Cases are generated deterministically from a seed. Every answer must be < 500, JSON, free
 * of stack traces and file paths, `{success:false, code, message}` when it is an error, and a refused
 * request must leave every table as it was.
 */
import { exportPKCS8, generateKeyPair, importPKCS8, SignJWT } from "jose";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PASSWORD, PNG, registrationForm, type AppBackend } from "./app-backend.ts";

export type FuzzCase = {
  category: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | FormData;
};

export type FuzzReport = {
  requests: number;
  byCategory: Record<string, number>;
  byStatus: Record<string, number>;
  refused: number;
  accepted: number;
  /**
   * Answers from the platform layer (local-backend/site.ts, as Convex does) before convex/http.ts runs,
   * in Convex's `{code, message}` shape: 401 for a token it cannot verify, 413 for a body over 20 MB.
   */
  platformErrors: number;
  failures: string[];
  /** What the 2xx answers were to (fuzzed input that was accepted deserves a look). */
  acceptedCases: string[];
};

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}

const WEIRD_VALUES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  true,
  [],
  {},
  [1, 2, 3],
  { $gt: "" },
  "",
  " ",
  "\u0000",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "../../etc/passwd",
  "x".repeat(10_000),
  "नेपाल",
  "😀".repeat(50),
  "NaN",
  "Infinity",
  "1e999",
  "__proto__",
];

const MALFORMED_JSON = [
  "",
  "{",
  "}",
  "[1,2",
  '{"email":}',
  '{"email": "a@b.np", }',
  "null",
  "true",
  "42",
  '"just a string"',
  "[]",
  '{"__proto__": {"admin": true}}',
  "\uFEFF{}",
  "{'single': 'quotes'}",
  '{"a":1}{"b":2}',
  "NaN",
  "\u0000\u0001\u0002",
];

type JsonRoute = {
  method: "POST" | "PUT";
  path: () => string;
  fields: Record<string, unknown>;
  auth?: string;
};

/** Tokens: real ones and every way to get one wrong. */
async function tokenSet(app: AppBackend) {
  const keys = JSON.parse(readFileSync(path.join(app.dataDir, "auth-keys.json"), "utf8")) as {
    JWT_PRIVATE_KEY: string;
  };
  const realKey = await importPKCS8(keys.JWT_PRIVATE_KEY, "RS256");
  const { privateKey: otherKey } = await generateKeyPair("RS256", { extractable: true });
  const other = await importPKCS8(await exportPKCS8(otherKey), "RS256");
  const sub = `${app.accounts.professional.userId}|nosuchsession`;
  const sign = (
    key: CryptoKey,
    claims: { sub?: string; iss?: string; aud?: string; exp?: number },
  ) => {
    let jwt = new SignJWT(claims.sub === undefined ? {} : { sub: claims.sub })
      .setProtectedHeader({ alg: "RS256" })
      .setIssuedAt();
    jwt = jwt.setIssuer(claims.iss ?? app.site).setAudience(claims.aud ?? "convex");
    jwt = jwt.setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 3600);
    return jwt.sign(key);
  };
  const real = app.accounts.professional.token;
  const [header, payload] = real.split(".");
  const forgedPayload = Buffer.from(
    JSON.stringify({
      ...JSON.parse(Buffer.from(payload, "base64url").toString()),
      sub: `${app.accounts.customer.userId}|x`,
    }),
  ).toString("base64url");
  return {
    garbage: "Bearer not-a-token",
    empty: "Bearer ",
    "three dots": "Bearer a.b.c",
    "alg none": `Bearer ${Buffer.from('{"alg":"none"}').toString("base64url")}.${payload}.`,
    "other key": `Bearer ${await sign(other, { sub: `${app.accounts.admin.userId}|x` })}`,
    expired: `Bearer ${await sign(realKey, { sub, exp: Math.floor(Date.now() / 1000) - 60 })}`,
    "wrong issuer": `Bearer ${await sign(realKey, { sub, iss: "https://evil.example" })}`,
    "wrong audience": `Bearer ${await sign(realKey, { sub, aud: "someone-else" })}`,
    "no session": `Bearer ${await sign(realKey, { sub })}`,
    "no subject": `Bearer ${await sign(realKey, {})}`,
    "subject not an id": `Bearer ${await sign(realKey, { sub: "admin|admin" })}`,
    "payload swapped": `Bearer ${header}.${forgedPayload}.${real.split(".")[2]}`,
    basic: "Basic YWRtaW46YWRtaW4=",
    huge: `Bearer ${"A".repeat(16_000)}`,
  } as Record<string, string>;
}

/** Generates `count` cases round-robin over the categories, deterministic for a seed. */
export async function generateCases(app: AppBackend, count: number, seed = 1): Promise<FuzzCase[]> {
  const r = rng(seed);
  const { customer, professional, admin } = app.accounts;
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
  const tokens = await tokenSet(app);
  const jsonRoutes: JsonRoute[] = [
    {
      method: "POST",
      path: () => "/api/users/login",
      fields: { email: "nobody@example.np", password: "wrong" },
    },
    {
      method: "POST",
      path: () => "/api/technicians/login",
      fields: { email: "nobody@example.np", password: "wrong" },
    },
    {
      method: "POST",
      path: () => "/api/admin/login",
      fields: { username: "nobody", password: "wrong" },
    },
    {
      method: "POST",
      path: () => "/api/current-location",
      fields: { userId: professional.userId, longitude: 85.3, latitude: 27.7, accuracy: 5 },
      auth: professional.token,
    },
    {
      method: "PUT",
      path: () =>
        `/api/bookings/${r.pick(["nosuchbooking", professional.userId, "%zz", "x".repeat(300)])}`,
      fields: { status: "accepted" },
      auth: professional.token,
    },
  ];
  const routes: { path: string; methods: string[] }[] = [
    { path: "/api/users/login", methods: ["POST"] },
    { path: "/api/technicians/login", methods: ["POST"] },
    { path: "/api/admin/login", methods: ["POST"] },
    { path: "/api/users/register", methods: ["POST"] },
    { path: "/api/technicians/register", methods: ["POST"] },
    { path: "/api/signout", methods: ["POST"] },
    { path: "/api/technicians", methods: ["GET"] },
    { path: "/api/technicians/", methods: ["GET"] },
    { path: "/api/technicians/search", methods: ["GET"] },
    { path: "/api/services/category/electrical", methods: ["GET"] },
    { path: "/api/services/electrical/Fan%20Installation/kathmandu", methods: ["GET"] },
    { path: "/api/current-locations", methods: ["GET"] },
    { path: "/api/current-location", methods: ["POST"] },
    { path: `/api/bookings/${customer.userId}`, methods: ["GET", "PUT"] },
  ];
  const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
  let hugeBodies = 0;
  const safeToken = () => r.pick([customer.token, professional.token, admin.token]);

  const generators: Record<string, () => FuzzCase> = {
    "malformed JSON": () => {
      const route = r.pick(jsonRoutes);
      return {
        category: "malformed JSON",
        method: route.method,
        path: route.path(),
        headers: { "Content-Type": "application/json", ...(route.auth ? bearer(route.auth) : {}) },
        body: r.pick(MALFORMED_JSON),
      };
    },
    "wrong types": () => {
      const route = r.pick(jsonRoutes);
      const field = r.pick(Object.keys(route.fields));
      return {
        category: "wrong types",
        method: route.method,
        path: route.path(),
        headers: { "Content-Type": "application/json", ...(route.auth ? bearer(route.auth) : {}) },
        body: JSON.stringify({ ...route.fields, [field]: r.pick(WEIRD_VALUES) }),
      };
    },
    "missing fields": () => {
      const route = r.pick(jsonRoutes);
      const fields = { ...route.fields };
      for (const k of Object.keys(fields))
        if (r.next() < 0.6) delete fields[k as keyof typeof fields];
      if (Object.keys(fields).length === Object.keys(route.fields).length)
        delete fields[Object.keys(fields)[0] as keyof typeof fields];
      return {
        category: "missing fields",
        method: route.method,
        path: route.path(),
        headers: { "Content-Type": "application/json", ...(route.auth ? bearer(route.auth) : {}) },
        body: JSON.stringify(fields),
      };
    },
    "wrong content type": () => {
      const route = r.pick(jsonRoutes);
      return {
        category: "wrong content type",
        method: route.method,
        path: route.path(),
        headers: {
          "Content-Type": r.pick([
            "text/plain",
            "application/xml",
            "multipart/form-data; boundary=x",
            "application/x-www-form-urlencoded",
            "",
          ]),
          ...(route.auth ? bearer(route.auth) : {}),
        },
        body: JSON.stringify(route.fields),
      };
    },
    "huge body": () => {
      if (hugeBodies++ % 8 === 0) {
        // over the platform's 20 MB limit for an HTTP action body
        const form = registrationForm(`huge.${r.int(1e9)}@example.np`, false, {
          profile: new Blob([PNG, new Uint8Array(21 * 1024 * 1024)], { type: "image/png" }),
        });
        return { category: "huge body", method: "POST", path: "/api/users/register", body: form };
      }
      const route = r.pick(jsonRoutes);
      const size = r.pick([65 * 1024, 200 * 1024, 1024 * 1024]);
      return {
        category: "huge body",
        method: route.method,
        path: route.path(),
        headers: { "Content-Type": "application/json", ...(route.auth ? bearer(route.auth) : {}) },
        body: JSON.stringify({ ...route.fields, padding: "x".repeat(size) }),
      };
    },
    "wrong method": () => {
      const route = r.pick(routes);
      const method = r.pick(ALL_METHODS.filter((m) => !route.methods.includes(m)));
      return {
        category: "wrong method",
        method,
        path: route.path,
        headers: bearer(safeToken()),
        body: method === "GET" || method === "HEAD" ? undefined : "{}",
      };
    },
    "bad upload": () => {
      const professionalForm = r.next() < 0.5;
      const kind = r.pick(["pdf", "text", "empty", "truncated png", "oversized", "html", "svg"]);
      const blob =
        kind === "pdf"
          ? new Blob(["%PDF-1.4 fake"], { type: "image/png" })
          : kind === "text"
            ? new Blob(["hello"], { type: "text/plain" })
            : kind === "empty"
              ? new Blob([], { type: "image/png" })
              : kind === "truncated png"
                ? new Blob([PNG.subarray(0, 4)], { type: "image/png" })
                : kind === "html"
                  ? new Blob(["<html><script>alert(1)</script></html>"], { type: "text/html" })
                  : kind === "svg"
                    ? new Blob(['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'], {
                        type: "image/svg+xml",
                      })
                    : new Blob([PNG, new Uint8Array(6 * 1024 * 1024)], { type: "image/png" });
      const field = professionalForm
        ? r.pick(["citizenshipFront", "citizenshipBack", "trainingCertificate", "profile"])
        : "profile";
      const email = `upload.${r.int(1e9)}@example.np`;
      return {
        category: "bad upload",
        method: "POST",
        path: professionalForm ? "/api/technicians/register" : "/api/users/register",
        body: registrationForm(email, professionalForm, { [field]: blob }),
      };
    },
    "bad form": () => {
      const professionalForm = r.next() < 0.5;
      const variant = r.pick(["missing fields", "bad boundary", "json instead", "weird values"]);
      const p = professionalForm ? "/api/technicians/register" : "/api/users/register";
      if (variant === "bad boundary") {
        return {
          category: "bad form",
          method: "POST",
          path: p,
          headers: { "Content-Type": "multipart/form-data; boundary=abc" },
          body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--',
        };
      }
      if (variant === "json instead") {
        return {
          category: "bad form",
          method: "POST",
          path: p,
          headers: { "Content-Type": "application/json" },
          body: '{"email":"a@b.np"}',
        };
      }
      const form = registrationForm(`form.${r.int(1e9)}@example.np`, professionalForm);
      if (variant === "missing fields")
        for (const k of ["email", "password", "fullname", "phoneNumber"])
          if (r.next() < 0.5) form.delete(k);
          else
            form.set(
              r.pick([
                "email",
                "password",
                "fullname",
                "phoneNumber",
                "zipCode",
                "specialty",
                "city",
              ]),
              String(r.pick(WEIRD_VALUES)),
            );
      if (variant === "missing fields" && form.has("email") && form.has("password"))
        form.delete("password");
      return { category: "bad form", method: "POST", path: p, body: form };
    },
    "bad token": () => {
      const route = r.pick([
        { method: "GET", path: "/api/technicians" },
        { method: "POST", path: "/api/signout" },
        { method: "GET", path: `/api/bookings/${customer.userId}` },
        {
          method: "POST",
          path: "/api/current-location",
          body: JSON.stringify({ userId: professional.userId, longitude: 85, latitude: 27 }),
        },
        { method: "PUT", path: "/api/bookings/nosuchbooking", body: '{"status":"accepted"}' },
        { method: "GET", path: "/api/current-locations" },
      ]);
      const name = r.pick(Object.keys(tokens));
      return {
        category: `bad token`,
        method: route.method,
        path: route.path,
        headers: {
          Authorization: tokens[name],
          ...(route.body ? { "Content-Type": "application/json" } : {}),
        },
        body: route.body,
      };
    },
    "bad path": () => ({
      category: "bad path",
      method: "GET",
      path: r.pick([
        "/api/services/%zz/x/y",
        "/api/services/category/%E0%A4",
        `/api/services/category/${"x".repeat(5000)}`,
        "/api/services/category/",
        "/api/services/a/b/c/d/e",
        "/api/services/..%2F..%2Fetc/passwd/x",
        "/api/bookings/",
        "/api/bookings/%00",
        `/api/bookings/${"9".repeat(400)}`,
        "/api/technicians/search?specialty=&city=",
        "/api/technicians/search?specialty=%zz&city=x",
        `/api/technicians/search?specialty=${"a".repeat(3000)}&city=kathmandu`,
        "/api/technicians/search?specialty[]=a&city[$gt]=",
        "/api/nope",
        "/api/",
        "/api//users//login",
      ]),
      headers: r.next() < 0.5 ? bearer(safeToken()) : {},
    }),
    "wrong user": () =>
      r.pick([
        {
          category: "wrong user",
          method: "POST",
          path: "/api/current-location",
          headers: { "Content-Type": "application/json", ...bearer(professional.token) },
          body: JSON.stringify({ userId: customer.userId, longitude: 85, latitude: 27 }),
        },
        {
          category: "wrong user",
          method: "GET",
          path: `/api/bookings/${app.accounts.otherCustomer.userId}`,
          headers: bearer(customer.token),
        },
        {
          category: "wrong user",
          method: "PUT",
          path: `/api/bookings/${customer.userId}`,
          headers: { "Content-Type": "application/json", ...bearer(customer.token) },
          body: '{"status":"accepted"}',
        },
        {
          category: "wrong user",
          method: "GET",
          path: "/api/technicians",
          headers: bearer(r.pick([customer.token, professional.token])),
        },
        {
          category: "wrong user",
          method: "POST",
          path: "/api/users/login",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: professional.email, password: PASSWORD }),
        },
      ]),
  };
  const names = Object.keys(generators);
  return Array.from({ length: count }, (_, i) => generators[names[i % names.length]]());
}

const STACK = /\n\s+at\s|\bat\s+\S+\s+\(|\.(?:ts|js|mjs):\d+|\/work\/|node_modules|file:\/\//;

/** Sends every case in order and checks each answer; refused requests must leave the tables unchanged. */
export async function runFuzz(app: AppBackend, cases: FuzzCase[]): Promise<FuzzReport> {
  const report: FuzzReport = {
    requests: 0,
    byCategory: {},
    byStatus: {},
    refused: 0,
    accepted: 0,
    platformErrors: 0,
    failures: [],
    acceptedCases: [],
  };
  let before = await app.fingerprint();
  for (const c of cases) {
    const label = `${c.category}: ${c.method} ${c.path.slice(0, 80)}`;
    let res: Response;
    try {
      res = await fetch(app.site + c.path, {
        method: c.method,
        headers: c.headers,
        body: c.body as BodyInit | undefined,
      });
    } catch (error) {
      report.failures.push(
        `${label}: request failed (${(error as Error).message}) — server crashed or dropped the connection`,
      );
      break;
    }
    const text = await res.text();
    report.requests++;
    report.byCategory[c.category] = (report.byCategory[c.category] ?? 0) + 1;
    report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
    const fail = (why: string) =>
      report.failures.push(`${label} → ${res.status}: ${why}: ${text.slice(0, 200)}`);
    if (res.status >= 500) fail("5xx");
    if (STACK.test(text)) fail("stack trace or file path in the body");
    const ok = res.status >= 200 && res.status < 300;
    if (c.method !== "HEAD" && !(c.method === "OPTIONS" && res.status === 204)) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        fail("body is not JSON");
      }
      const b = body as { success?: unknown; code?: unknown; message?: unknown } | undefined;
      if (b !== undefined && !ok) {
        const carriesToken = c.headers?.Authorization?.startsWith("Bearer ") ?? false;
        const platform =
          ((res.status === 401 && carriesToken && b.code === "Unauthenticated") ||
            (res.status === 413 && b.code === "PayloadTooLarge")) &&
          b.success === undefined &&
          typeof b.message === "string";
        if (c.category === "bad token" && b.code === "BAD_REQUEST")
          fail("a token that does not verify answered as a bad request, not a 401");
        if (platform) report.platformErrors++;
        else if (b.success !== false || typeof b.code !== "string" || typeof b.message !== "string")
          fail("error body is not {success:false, code, message}");
      }
      if (b !== undefined && ok && b.success !== true) fail("2xx body without success:true");
    }
    const after = await app.fingerprint();
    if (ok) {
      report.accepted++;
      report.acceptedCases.push(`${label} → ${res.status}`);
    } else {
      report.refused++;
      if (after.hash !== before.hash) {
        const changed = Object.keys(after.counts).filter(
          (k) => after.counts[k] !== before.counts[k],
        );
        fail(
          `refused request changed the database (tables with new counts: ${changed.join(", ") || "same counts, changed contents"})`,
        );
      }
    }
    before = after;
  }
  return report;
}

export function summarize(report: FuzzReport): string {
  const statuses = Object.entries(report.byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  const fives = Object.entries(report.byStatus)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, k]) => n + k, 0);
  return (
    `${report.requests} requests (${report.refused} refused, ${report.accepted} accepted), ${fives} 5xx, ` +
    `${report.failures.length} violations; statuses ${statuses}; ${report.platformErrors} platform answers (bad-token 401, >20 MB 413) in Convex's {code,message} shape`
  );
}
