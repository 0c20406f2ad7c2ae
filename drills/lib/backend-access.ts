/**
 * The access drill against a started backend on its ports (access-backend.test.ts): the cast of
 * backend-fixtures.ts, called over HTTP (`POST /api/query|mutation|action`, the site's routes) as
 * each role, with ids of every table — the backend's own ids, Convex's encoding — and of other users
 * in every id-typed argument, in the id segments and fields of the HTTP routes, and in refresh tokens.
 * Every document is read from the data directory around each run of calls (data-dir.ts): a change
 * the caller may not make fails, and so does a canary in any answer to someone who may not see it.
 *
 * Arguments other than the attacked one are made from the validator: ids of the cast's own booking,
 * professional and service, strings and numbers a form would send.
 */
import { makeFunctionReference } from "convex/server";
import {
  ADMIN_LISTED_TABLES,
  FUNCTION_WRITES,
  mayWriteWithAnyIds,
  PUBLIC_DOCUMENTS,
  ROLES,
  ROUTE_ACCESS,
  ROUTE_WRITES,
  type DrillRole,
} from "../access-table";
import { slotName, withValueAt, type ValidatorJson } from "./arg-slots";
import type { BackendCast } from "./backend-fixtures";
import { CallWatcher, INTERNAL_ERROR, callFunction, fetchRoute, type Answer } from "./checked-call";
import { refreshTokenSweep } from "./refresh-token-sweep";
import { ALL_TABLES, type Snapshot } from "./db-snapshot";
import { enumerationProblems, idsForSlot, type IdPool, type PublicFunction } from "./id-sweep";
import { idsByOwner } from "./ownership";

export type SweepReport = { calls: number; pairs: number; problems: string[]; line: string };

/** What a form would send, by argument name; anything else is "drill". */
const STRINGS: Record<string, string> = {
  address: "Ward 2, Thamel",
  city: "kathmandu",
  category: "electrical",
  specialty: "electrician",
  comment: "Good work",
  reason: "Plans changed",
  decision: "verified",
  provider: "customer",
};
const NUMBERS: Record<string, () => number> = {
  // clear of the cast's accepted job (rules/schedule.ts)
  scheduledFor: () => Date.now() + 10 * 3_600_000,
  rating: () => 5,
  latitude: () => 27.7,
  longitude: () => 85.3,
  numItems: () => 10,
};

/** A value `validator` accepts (optional fields left out), ids from `idOf`. */
export function defaultValue(
  validator: ValidatorJson,
  idOf: (table: string) => string | undefined,
  key = "",
): unknown {
  switch (validator.type) {
    case "id":
      return idOf(validator.tableName);
    case "string":
      return STRINGS[key] ?? "drill";
    case "number":
      return (NUMBERS[key] ?? (() => 1))();
    case "boolean":
      return false;
    case "null":
      return null;
    case "any":
    case "record":
      return {};
    case "literal":
      return validator.value;
    case "array":
      return validator.value.type === "id" ? [defaultValue(validator.value, idOf, key)] : [];
    case "union": {
      const members = validator.value;
      const preferred =
        members.find((m) => m.type === "null") ??
        members.find((m) => m.type === "literal" && m.value === STRINGS[key]) ??
        members[0];
      return defaultValue(preferred, idOf, key);
    }
    case "object":
      return Object.fromEntries(
        Object.entries(validator.value)
          .filter(([, field]) => !field.optional)
          .map(([k, field]) => [k, defaultValue(field.fieldType, idOf, k)]),
      );
    default:
      return undefined;
  }
}

type Fetcher = { fetch(path: string, init?: RequestInit): Promise<Response> };

export class BackendAccessSweep {
  private pool: IdPool = {};
  private missing: Record<string, string> = {};
  private rows: Snapshot = new Map();

  constructor(
    private readonly cast: BackendCast,
    private readonly siteUrl: string,
    private readonly full: boolean,
  ) {}

  /** Ids of every table, one per owner, and a missing one of each. */
  async prepare() {
    this.rows = await this.cast.reader.settled();
    this.pool = idsByOwner(this.rows, this.cast.roleOfUser);
    for (const table of ALL_TABLES) {
      const id = this.cast.reader.missingId(table);
      if (id !== undefined) this.missing[table] = id;
    }
    const empty = ALL_TABLES.filter((t) => (this.pool[t] ?? []).length === 0);
    return { tables: ALL_TABLES.length - empty.length, empty };
  }

  private watcher() {
    return new CallWatcher(
      () => this.cast.reader.settled(),
      this.cast.canaries,
      (userId) => this.cast.roleOfUser.get(userId) ?? "someone",
    );
  }

  /**
   * Someone else's document may answer unlike a missing one when anyone may know it exists, or when
   * the caller is an admin and the admin panel lists every document of its table.
   */
  private known = (table: string | undefined, role: DrillRole) => async (id: string) => {
    if (role === "admin" && table !== undefined && ADMIN_LISTED_TABLES.has(table)) return true;
    const row = this.rows.get(id);
    const rule = table === undefined ? undefined : PUBLIC_DOCUMENTS[table];
    return row !== undefined && rule !== undefined && rule(row.doc);
  };

  private idOf(table: string): string | undefined {
    const cast = this.cast;
    const natural: Record<string, string> = {
      bookings: cast.booking,
      professionals: cast.professionals.professional,
      services: cast.serviceId,
      users: cast.userIds.customer,
    };
    return natural[table] ?? this.pool[table]?.[0]?.id;
  }

  /** Every public function with an id-typed argument, as every role, with ids of every table in it. */
  async functions(functions: PublicFunction[]): Promise<SweepReport> {
    const problems: string[] = [];
    const covered = new Set<string>();
    let calls = 0;
    let slotCount = 0;
    for (const fn of functions) {
      const slots = fn.slots.filter((s) => s.table !== undefined);
      if (slots.length === 0 || fn.args === undefined) continue;
      slotCount += slots.length;
      const ref = makeFunctionReference(fn.name);
      const base = defaultValue(fn.args, (t) => this.idOf(t)) as Record<string, unknown>;
      for (const role of ROLES) {
        const as = this.cast.callers[role];
        const viewer = this.cast.viewerOf(as);
        const mayWrite = mayWriteWithAnyIds(fn.name, role);
        const watcher = this.watcher();
        for (const [slotIndex, slot] of slots.entries()) {
          const answers: { owners: string; id: string; answer: Answer }[] = [];
          for (const { table, id, owners } of idsForSlot(
            this.pool,
            this.missing,
            slot.table,
            slotIndex,
            role,
            this.full,
          )) {
            const args = withValueAt(base, slot.path, id);
            const label = `${fn.name}(${slotName(slot)} = ${table} of ${owners}) as ${role}`;
            const result = await watcher.watch(
              {
                viewer,
                label,
                writes: mayWrite ? (FUNCTION_WRITES[fn.name] ?? {}) : {},
                sent: JSON.stringify(args),
                readOnly: fn.kind === "query",
              },
              () => callFunction(as, fn.kind, ref, args),
            );
            calls++;
            covered.add(`${fn.name} ${slotName(slot)} ${table}`);
            problems.push(...result.problems);
            if (result.outcome === INTERNAL_ERROR) problems.push(`${label}: an internal error`);
            if (table === slot.table) answers.push({ owners, id, answer: result });
          }
          problems.push(
            ...(await enumerationProblems(
              `${fn.name}(${slotName(slot)})`,
              role,
              answers,
              this.known(slot.table, role),
            )),
          );
        }
        problems.push(...(await watcher.flush()));
      }
    }
    return {
      calls,
      pairs: covered.size,
      problems,
      line: `${slotCount} id arguments × ${ALL_TABLES.length} tables (${covered.size} pairs) in ${calls} calls`,
    };
  }

  /**
   * The routes that take an id: `/api/bookings/{id}` (GET a customer's list, PUT a booking's status),
   * `POST /api/current-location` ({userId}), and the backend's `/api/storage/{id}` (no token).
   */
  async routes(): Promise<SweepReport> {
    const problems: string[] = [];
    const covered = new Set<string>();
    let calls = 0;
    const cast = this.cast;
    type Target = {
      route: string;
      table: string;
      request: (id: string) => { url: string; init: RequestInit };
    };
    const json = (method: string, body: unknown): RequestInit => ({
      method,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const targets: Target[] = [
      {
        route: "GET /api/bookings/*",
        table: "users",
        request: (id) => ({ url: `${this.siteUrl}/api/bookings/${id}`, init: { method: "GET" } }),
      },
      {
        route: "PUT /api/bookings/*",
        table: "bookings",
        request: (id) => ({
          url: `${this.siteUrl}/api/bookings/${id}`,
          init: json("PUT", { status: "accepted" }),
        }),
      },
      {
        route: "POST /api/current-location",
        table: "users",
        request: (id) => ({
          url: `${this.siteUrl}/api/current-location`,
          init: json("POST", { userId: id, longitude: 85.31, latitude: 27.7 }),
        }),
      },
      {
        route: "GET /api/storage/*",
        table: "_storage",
        request: (id) => ({ url: `${cast.url}/api/storage/${id}`, init: { method: "GET" } }),
      },
    ];
    for (const [index, target] of targets.entries()) {
      for (const role of ROLES) {
        const token = role === "visitor" ? undefined : cast.tokens[role].token;
        const viewer = cast.viewerOf(cast.callers[role]);
        const expectation = ROUTE_ACCESS[target.route];
        const allowed = Array.isArray(expectation) && expectation.includes(role);
        const watcher = this.watcher();
        const answers: { owners: string; id: string; answer: Answer }[] = [];
        for (const { table, id, owners } of idsForSlot(
          this.pool,
          this.missing,
          target.table,
          index,
          role,
          this.full,
        )) {
          const { url, init } = target.request(id);
          const headers = new Headers(init.headers);
          if (token !== undefined) headers.set("Authorization", `Bearer ${token}`);
          const label = `${target.route} (${table} of ${owners}) as ${role}`;
          const fetcher: Fetcher = { fetch: (u, i) => fetch(u, i) };
          const result = await watcher.watch(
            {
              viewer,
              label,
              writes: allowed ? (ROUTE_WRITES[target.route] ?? {}) : {},
              sent: `${url} ${typeof init.body === "string" ? init.body : ""}`,
            },
            () => fetchRoute(fetcher, url, { ...init, headers }),
          );
          calls++;
          covered.add(`${target.route} ${table}`);
          problems.push(...result.problems);
          if (Number(result.outcome) >= 500) problems.push(`${label}: HTTP ${result.outcome}`);
          if (table === target.table) answers.push({ owners, id, answer: result });
        }
        problems.push(
          ...(await enumerationProblems(
            target.route,
            role,
            answers,
            this.known(target.table, role),
          )),
        );
        problems.push(...(await watcher.flush()));
      }
    }
    return {
      calls,
      pairs: covered.size,
      problems,
      line: `${targets.length} routes × ${ALL_TABLES.length} tables (${covered.size} pairs) in ${calls} requests`,
    };
  }

  /**
   * `auth:signIn({refreshToken})` with "<id>|<id>" of every table in either half (every pair in
   * full), `params.code` and `verifier` of every table: nothing may change at all, and the answer is
   * a garbage token's.
   */
  refreshTokens(): Promise<SweepReport> {
    return refreshTokenSweep({
      pool: this.pool,
      missing: this.missing,
      full: this.full,
      issued: (tokenId, sessionId) =>
        this.rows.get(tokenId)?.table === "authRefreshTokens" &&
        this.rows.get(tokenId)?.doc.sessionId === sessionId,
      callerOf: (role) => this.cast.callers[role],
      viewerOf: this.cast.viewerOf,
      watcher: this.watcher(),
      emails: false,
    });
  }
}
