// @vitest-environment edge-runtime
/**
 * Access sweep: every public Convex function and every HTTP route, called as each role — first with
 * valid arguments (the outcome must match access-table.ts), then with ids of every table and of other
 * users in every id-typed argument, path segment and field. Each call is watched (lib/checked-call.ts):
 * no document may change that the caller may not change, and no canary may reach anyone who may not
 * see it. DRILLS_FULL=1 (npm run drills) throws every id at every slot as every role; the short
 * version (npm test) every table at every slot, the slot's own table as every role.
 */
import { makeFunctionReference } from "convex/server";
import { beforeAll, describe, expect, test } from "vitest";
import { modules, useCheapPasswordHashes } from "../convex/test.setup";
import {
  ENDS_SESSIONS,
  FUNCTION_ACCESS,
  FUNCTION_WRITES,
  mayWriteWithAnyIds,
  ADMIN_LISTED_TABLES,
  PUBLIC_DOCUMENTS,
  ROLES,
  ROUTE_ACCESS,
  ROUTE_WRITES,
  type DrillRole,
} from "./access-table";
import { buildFixtures, type Accessor, type Fixtures } from "./convex-fixtures";
import { slotName, withValueAt } from "./lib/arg-slots";
import { CallWatcher, callFunction, fetchRoute, type Answer } from "./lib/checked-call";
import { refreshTokenSweep } from "./lib/refresh-token-sweep";
import { ALL_TABLES, settledSnapshot, snapshot } from "./lib/db-snapshot";
import {
  requestSlotName,
  requestSlots,
  withRequestValue,
  type RequestSlot,
} from "./lib/request-slots";
import {
  enumerationProblems,
  idsForSlot,
  publicFunctions as functionsOf,
  type IdPool,
  type PublicFunction,
} from "./lib/id-sweep";
import { idsByOwner } from "./lib/ownership";
import { VALID_CALLS, validRequest } from "./lib/valid-calls";
import { FULL } from "./lib/drill-size.ts";

/** Generous: the short version takes about a minute of CPU, which a shared machine stretches. */
const LONG = FULL ? 1_800_000 : 600_000;

type Fetcher = { fetch(path: string, init?: RequestInit): Promise<Response> };

/** Refusals; NOT_FOUND is how a resource of someone else's answers (as if it did not exist). */
const ACCESS_CODES = new Set(["UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND"]);
/** Queries that answer someone else's resource with null, as a missing one: null is their refusal. */
const NULL_HIDES = new Set(["bookings:get", "bills:get", "locations:forBooking", "receipts:get"]);

const publicFunctions = () => functionsOf(modules);

async function httpRoutes(): Promise<string[]> {
  const http = (await import("../convex/http")).default;
  return http.getRoutes().map(([path, method]) => `${method} ${path}`);
}
/** The table row of a route: OPTIONS answers as its GET does. */
const routeKey = (route: string) => route.replace(/^OPTIONS /, "GET ");

function routeAllows(route: string, role: DrillRole): boolean {
  const expectation = ROUTE_ACCESS[routeKey(route)];
  return !route.startsWith("OPTIONS ") && Array.isArray(expectation) && expectation.includes(role);
}

/** Calls by the same caller with the same allowance side by side: the watcher reads them as one run. */
function runOrder(f: Fixtures, call: { as: Accessor; writes: object }): string {
  return JSON.stringify([f.viewerOf(call.as), call.writes]);
}

function watcherOf(f: Fixtures): CallWatcher {
  return new CallWatcher(
    () => settledSnapshot(f.t),
    f.canaries,
    (userId) => f.roleOfUser.get(userId) ?? "someone",
  );
}

/** Ids in what every public query and GET route answers a visitor: anyone may know they exist. */
async function idsVisitorsSee(f: Fixtures, functions: PublicFunction[]): Promise<Set<string>> {
  const answers: string[] = [];
  for (const { name, kind } of functions) {
    if (kind !== "query" || !FUNCTION_ACCESS[name].includes("visitor")) continue;
    const { args } = await VALID_CALLS[name]({ f, role: "visitor", as: f.t });
    answers.push((await callFunction(f.t, kind, makeFunctionReference(name), args)).text);
  }
  for (const route of await httpRoutes()) {
    const [method, pattern] = route.split(" ") as [string, string];
    if (method !== "GET" || !routeAllows(route, "visitor")) continue;
    const { path, init } = await validRequest(f, method, pattern, "visitor");
    answers.push((await fetchRoute(f.t as Fetcher, path, { ...init, method })).text);
  }
  const text = answers.join("\n");
  return new Set([...(await snapshot(f.t)).keys()].filter((id) => text.includes(id)));
}

type Getter = { get(table: string, id: string): Promise<Record<string, unknown> | null> };

/** Whether anyone may know a document exists now: a visitor saw its id, or access-table.ts calls it public. */
function knownTo(f: Fixtures, seen: Set<string>, table: string | undefined, role: DrillRole) {
  return async (id: string) => {
    if (seen.has(id)) return true;
    if (role === "admin" && table !== undefined && ADMIN_LISTED_TABLES.has(table)) return true;
    const rule = table === undefined ? undefined : PUBLIC_DOCUMENTS[table];
    if (rule === undefined || table === undefined) return false;
    const doc = await f.t.run((ctx) => (ctx.db as unknown as Getter).get(table, id));
    return doc !== null && rule(doc);
  };
}

/** Fixtures for a hostile-id sweep: the ids to attack with, and those any visitor sees. */
async function hostileFixtures(): Promise<{ f: Fixtures; pool: IdPool; seen: Set<string> }> {
  const f = await buildFixtures();
  const pool = idsByOwner(await snapshot(f.t), f.roleOfUser);
  const seen = await idsVisitorsSee(f, await publicFunctions());
  return { f, pool, seen };
}

/**
 * Functions swept on one set of fixtures. Every call's valid arguments add documents (fresh bookings,
 * sessions, sign-ups), and convex-test reads any table by scanning every document of every table: on
 * fresh fixtures every few functions, the calls and the watcher's snapshots cost a fraction of what
 * they do on one set grown to ten times its size (the hostile-id sweep's 1,650 documents by its end).
 */
const FUNCTIONS_PER_FIXTURES = 12;
/** Routes (OPTIONS ones too) requested on one set of fixtures, as FUNCTIONS_PER_FIXTURES. */
const ROUTES_PER_FIXTURES = 24;

// PBKDF2 at a fraction of its iterations (convex/test.setup.ts): a third of the sweep's CPU
useCheapPasswordHashes();

describe("access sweep", () => {
  let f: Fixtures;
  beforeAll(async () => {
    f = await buildFixtures();
  }, LONG);

  test(
    "every public function is in the table; each role gets exactly what the table says, changes only what it may and sees no one else's canary",
    async () => {
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
      let changes = 0;
      let canaries = 0;
      const tally = { allow: 0, deny: 0 };
      // fresh fixtures every few functions (FUNCTIONS_PER_FIXTURES); on each, every call's arguments
      // first, then the calls in one watched series
      for (let start = 0; start < functions.length; start += FUNCTIONS_PER_FIXTURES) {
        const f = await buildFixtures();
        canaries = f.canaries.length;
        const built = [];
        for (const { name, kind } of functions.slice(start, start + FUNCTIONS_PER_FIXTURES)) {
          const build = VALID_CALLS[name];
          if (build === undefined) {
            mismatches.push(`${name}: no valid arguments in lib/valid-calls.ts`);
            continue;
          }
          for (const role of ROLES) {
            const { args, as = f.callers[role] } = await build({ f, role, as: f.callers[role] });
            const allowed = FUNCTION_ACCESS[name].includes(role);
            built.push({
              name,
              kind,
              role,
              args,
              as,
              allowed,
              writes: allowed ? (FUNCTION_WRITES[name] ?? {}) : {},
            });
          }
        }
        built.sort((x, y) => runOrder(f, x).localeCompare(runOrder(f, y)));
        const watcher = watcherOf(f);
        for (const { name, kind, role, args, as, allowed, writes } of built) {
          const result = await watcher.watch(
            {
              viewer: f.viewerOf(as),
              label: `${name} as ${role}`,
              writes,
              sent: JSON.stringify(args),
              readOnly: kind === "query",
            },
            () => callFunction(as, kind, makeFunctionReference(name), args),
          );
          calls++;
          mismatches.push(...result.problems);
          const outcome =
            result.outcome === "ok"
              ? result.text === "null" && !allowed && NULL_HIDES.has(name)
                ? "deny"
                : "allow"
              : ACCESS_CODES.has(result.outcome)
                ? "deny"
                : `error: ${result.outcome}`;
          if (outcome === "allow" || outcome === "deny") tally[outcome]++;
          const expected = allowed ? "allow" : "deny";
          if (outcome !== expected)
            mismatches.push(`${name} as ${role}: expected ${expected}, got ${outcome}`);
        }
        mismatches.push(...(await watcher.flush()));
        changes += watcher.changes;
      }
      console.log(
        `access sweep (functions): ${functions.length} functions × ${ROLES.length} roles = ${calls} calls (${tally.allow} allowed, ${tally.deny} refused, ${changes} document changes checked, ${canaries} canaries), ${mismatches.length} problems`,
      );
      expect(mismatches).toEqual([]);
    },
    LONG,
  );

  test(
    "every HTTP route is in the table; each role gets exactly what the table says, changes only what it may and sees no one else's canary",
    async () => {
      const routes = await httpRoutes();
      const withoutRow = routes.filter((r) => !r.startsWith("OPTIONS ") && !(r in ROUTE_ACCESS));
      expect(withoutRow, "routes without a table row").toEqual([]);
      expect(
        Object.keys(ROUTE_ACCESS).filter((r) => !routes.includes(r)),
        "table rows without a route",
      ).toEqual([]);

      const mismatches: string[] = [];
      let calls = 0;
      // fixtures of their own (the function sweep's jobs, presence checks, would come due in these),
      // fresh every few routes; on each, every request built first, then sent in one watched series,
      // by caller and allowance
      for (let start = 0; start < routes.length; start += ROUTES_PER_FIXTURES) {
        const f = await buildFixtures();
        const built = [];
        for (const route of routes.slice(start, start + ROUTES_PER_FIXTURES)) {
          const [method, pattern] = route.split(" ") as [string, string];
          for (const role of ROLES) {
            const request = await validRequest(f, method, pattern, role);
            const as = request.as ?? f.callers[role];
            const writes = routeAllows(route, role) ? (ROUTE_WRITES[routeKey(route)] ?? {}) : {};
            built.push({ route, method, role, ...request, as, writes });
          }
        }
        built.sort((x, y) => runOrder(f, x).localeCompare(runOrder(f, y)));
        const watcher = watcherOf(f);
        for (const { route, method, role, path, init, as, writes } of built) {
          const result = await watcher.watch(
            {
              viewer: f.viewerOf(as),
              label: `${method} ${path} as ${role}`,
              writes,
              sent: `${path} ${typeof init.body === "string" ? init.body : ""}`,
            },
            () => fetchRoute(as as Fetcher, path, { ...init, method }),
          );
          calls++;
          mismatches.push(...result.problems);
          const status = Number(result.outcome);
          const expectation =
            method === "OPTIONS" ? { everyone: 204 } : ROUTE_ACCESS[routeKey(route)];
          let ok: boolean;
          let expectedText: string;
          if (Array.isArray(expectation)) {
            const allowed = expectation.includes(role);
            // 404: someone else's resource answers as a missing one
            expectedText = allowed ? "2xx" : "401/403/404";
            ok = allowed ? status >= 200 && status < 300 : [401, 403, 404].includes(status);
          } else {
            expectedText = String(expectation.everyone);
            ok = status === expectation.everyone;
          }
          if (!ok)
            mismatches.push(
              `${method} ${path} as ${role}: expected ${expectedText}, got ${status} ${result.text.slice(0, 160)}`,
            );
        }
        mismatches.push(...(await watcher.flush()));
      }
      console.log(
        `access sweep (HTTP): ${routes.length} routes × ${ROLES.length} roles = ${calls} requests, ${mismatches.length} problems`,
      );
      expect(mismatches).toEqual([]);
    },
    LONG,
  );

  test(
    "after POST /api/signout, the token's session is refused (401) by every route that needs a signed-in caller",
    async () => {
      const http = (await import("../convex/http")).default;
      const mismatches: string[] = [];
      let calls = 0;
      for (const [pattern, method] of http.getRoutes()) {
        const expectation = ROUTE_ACCESS[`${method} ${pattern}`];
        if (!Array.isArray(expectation) || expectation.includes("visitor")) continue;
        for (const role of expectation) {
          const ended = (await f.freshSession(role)) as Fetcher;
          expect((await ended.fetch("/api/signout", { method: "POST" })).status).toBe(200);
          const { path, init } = await validRequest(f, method, pattern, role);
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
    },
    LONG,
  );
});

describe("access sweep with hostile ids", () => {
  test(
    "ids of every table and of other users in every id-typed argument of every function change nothing they may not and leak nothing",
    async () => {
      const functions = (await publicFunctions()).filter((fn) => fn.slots.length > 0);
      const problems: string[] = [];
      const covered = new Set<string>();
      let calls = 0;
      let fixtures!: Awaited<ReturnType<typeof hostileFixtures>>;
      for (const [index, { name, kind, slots }] of functions.entries()) {
        if (index % FUNCTIONS_PER_FIXTURES === 0) fixtures = await hostileFixtures();
        const { f, pool, seen } = fixtures;
        const ref = makeFunctionReference(name);
        for (const role of ROLES) {
          const { args, as: override } = await VALID_CALLS[name]({ f, role, as: f.callers[role] });
          const as = override ?? f.callers[role];
          const watcher = watcherOf(f);
          const mayWrite = mayWriteWithAnyIds(name, role);
          for (const [slotIndex, slot] of slots.entries()) {
            const answers: { owners: string; id: string; answer: Answer }[] = [];
            for (const { table, id, owners } of idsForSlot(
              pool,
              f.missingIds,
              slot.table,
              slotIndex,
              role,
              FULL,
            )) {
              const probe = withValueAt(args, slot.path, id);
              const label = `${name}(${slotName(slot)} = ${table} of ${owners}) as ${role}`;
              const result = await watcher.watch(
                {
                  viewer: f.viewerOf(as),
                  label,
                  writes: mayWrite ? (FUNCTION_WRITES[name] ?? {}) : {},
                  sent: JSON.stringify(probe),
                  readOnly: kind === "query",
                },
                () => callFunction(as, kind, ref, probe),
              );
              calls++;
              covered.add(`${name} ${slotName(slot)} ${table}`);
              problems.push(...result.problems);
              if (ENDS_SESSIONS.has(name)) {
                problems.push(...(await watcher.flush()));
                await f.reinstate();
                watcher.resync();
              }
              if (table === slot.table) answers.push({ owners, id, answer: result });
            }
            problems.push(
              ...(await enumerationProblems(
                `${name}(${slotName(slot)})`,
                role,
                answers,
                knownTo(f, seen, slot.table, role),
              )),
            );
          }
          problems.push(...(await watcher.flush()));
        }
      }
      const slotCount = functions.reduce((n, fn) => n + fn.slots.length, 0);
      console.log(
        `access sweep (hostile ids, functions${FULL ? ", full" : ""}): ${slotCount} id/string arguments of ${functions.length} functions × ${ALL_TABLES.length} tables (${covered.size} argument × table pairs) in ${calls} calls, ${problems.length} problems`,
      );
      expect(problems).toEqual([]);
    },
    LONG,
  );

  test(
    "ids of every table and of other users in every path segment, query parameter and field of every HTTP route change nothing they may not and leak nothing",
    async () => {
      // short version: the routes that serve the method (the others answer one status to everyone)
      const routes = (await httpRoutes()).filter(
        (r) => !r.startsWith("OPTIONS ") && (FULL || Array.isArray(ROUTE_ACCESS[r])),
      );
      const { f, pool, seen } = await hostileFixtures();
      const problems: string[] = [];
      const covered = new Set<string>();
      let calls = 0;
      let slotCount = 0;
      const rows = await snapshot(f.t);
      for (const route of routes) {
        const [method, pattern] = route.split(" ") as [string, string];
        for (const role of ROLES) {
          const request = await validRequest(f, method, pattern, role);
          const as = request.as ?? f.callers[role];
          const watcher = watcherOf(f);
          const slots: RequestSlot[] = requestSlots(pattern, request);
          if (role === ROLES[0]) slotCount += slots.length;
          for (const [slotIndex, slot] of slots.entries()) {
            // a slot whose valid value is an id (a booking's, a user's) takes that table's ids
            const slotTable = rows.get(slot.value)?.table;
            const answers: { owners: string; id: string; answer: Answer }[] = [];
            for (const { table, id, owners } of idsForSlot(
              pool,
              f.missingIds,
              slotTable,
              slotIndex,
              role,
              FULL,
            )) {
              const { path, init } = withRequestValue(pattern, request, slot, id);
              const label = `${method} ${pattern} (${requestSlotName(slot)} = ${table} of ${owners}) as ${role}`;
              const result = await watcher.watch(
                {
                  viewer: f.viewerOf(as),
                  label,
                  writes: routeAllows(route, role) ? (ROUTE_WRITES[routeKey(route)] ?? {}) : {},
                  sent: `${path} ${typeof init.body === "string" ? init.body : ""} ${id}`,
                },
                () => fetchRoute(as as Fetcher, path, { ...init, method }),
              );
              calls++;
              covered.add(`${route} ${requestSlotName(slot)} ${table}`);
              problems.push(...result.problems);
              if (Number(result.outcome) >= 500) problems.push(`${label}: HTTP ${result.outcome}`);
              if (table === slotTable) answers.push({ owners, id, answer: result });
            }
            problems.push(
              ...(await enumerationProblems(
                `${method} ${pattern} (${requestSlotName(slot)})`,
                role,
                answers,
                knownTo(f, seen, slotTable, role),
              )),
            );
          }
          problems.push(...(await watcher.flush()));
        }
      }
      console.log(
        `access sweep (hostile ids, HTTP${FULL ? ", full" : ""}): ${slotCount} path segments, parameters and fields of ${routes.length} routes × ${ALL_TABLES.length} tables (${covered.size} pairs) in ${calls} requests, ${problems.length} problems`,
      );
      expect(problems).toEqual([]);
    },
    LONG,
  );

  // npm test runs this against the started backend (access-backend.test.ts); npm run drills both
  test.runIf(FULL)(
    "auth: refresh tokens, verifiers and codes made of ids of every table change nothing and answer as a garbage token does",
    async () => {
      const { f, pool } = await hostileFixtures();
      const rows = await snapshot(f.t);
      const { problems, line } = await refreshTokenSweep({
        pool,
        missing: f.missingIds,
        full: FULL,
        issued: (tokenId, sessionId) =>
          rows.get(tokenId)?.table === "authRefreshTokens" &&
          rows.get(tokenId)?.doc.sessionId === sessionId,
        callerOf: (role) => f.callers[role],
        viewerOf: f.viewerOf,
        watcher: watcherOf(f),
        emails: true,
      });
      console.log(
        `access sweep (auth ids${FULL ? ", full" : ""}): ${line}; ${problems.length} problems`,
      );
      expect(problems).toEqual([]);
    },
    LONG,
  );
});
