/**
 * What the access drill's hostile-id sweeps share, against convex-test (access.test.ts) and against a
 * started backend (access-backend.test.ts): the public functions read from the modules, which ids go
 * into which argument, and the check that someone else's resource answers as a missing one.
 */
import { ROLES, type DrillRole } from "../access-table";
import { argsValidator, slotsOf, type Slot, type ValidatorJson } from "./arg-slots";
import type { Answer } from "./checked-call";
import { ALL_TABLES } from "./db-snapshot";

export type Kind = "query" | "mutation" | "action";
export type PublicFunction = {
  name: string;
  kind: Kind;
  /** Its arguments' validator (Convex's JSON), if it has one. */
  args?: ValidatorJson;
  slots: Slot[];
};
/** Ids to attack with, per table: one document of each owner found there (ownership.ts idsByOwner). */
export type IdPool = Record<string, { id: string; owners: string }[]>;

/** `module:export` of every public query, mutation and action, read from the modules themselves. */
export async function publicFunctions(
  modules: Record<string, () => Promise<unknown>>,
): Promise<PublicFunction[]> {
  const found: PublicFunction[] = [];
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
      if (kind === undefined) continue;
      const args = argsValidator(fn);
      found.push({
        name: `${moduleName}:${name}`,
        kind,
        args,
        slots: args === undefined ? [] : slotsOf(args),
      });
    }
  }
  return found.sort((x, y) => x.name.localeCompare(y.name));
}

/** In the short version a string argument takes ids of every fifth table (a different fifth each). */
const STRING_TABLE_STRIDE = 5;

/**
 * The ids to put in one slot as `role`. Short version: an id-typed slot takes every id of its own
 * table (one per owner, and a missing one) as every role, and one id of each other table as one role
 * in turn; a string slot one id of every fifth table. Full: every id as every role.
 */
export function idsForSlot(
  pool: IdPool,
  missing: Record<string, string>,
  slotTable: string | undefined,
  slotIndex: number,
  role: DrillRole,
  full: boolean,
) {
  const chosen: { table: string; id: string; owners: string }[] = [];
  ALL_TABLES.forEach((table, tableIndex) => {
    const ids = [...(pool[table] ?? [])];
    if (missing[table] !== undefined) ids.push({ id: missing[table], owners: "missing" });
    if (ids.length === 0) return;
    if (full || table === slotTable) {
      chosen.push(...ids.map((x) => ({ table, ...x })));
      return;
    }
    const turn = slotIndex + tableIndex;
    if (slotTable === undefined && turn % STRING_TABLE_STRIDE !== 0) return;
    const roleOfTurn = ROLES[(tableIndex - slotIndex + 6 * ALL_TABLES.length) % ROLES.length];
    if (roleOfTurn === role) chosen.push({ table, ...ids[slotIndex % ids.length] });
  });
  return chosen;
}

/**
 * The same answer for someone else's resource as for a missing one, whenever it is refused — unless
 * anyone may know it exists (`known`, asked only when the answers differ).
 */
export async function enumerationProblems(
  label: string,
  role: DrillRole,
  answers: { owners: string; id: string; answer: Answer }[],
  known: (id: string) => Promise<boolean>,
): Promise<string[]> {
  const missing = answers.find((a) => a.owners === "missing");
  if (missing === undefined) return [];
  const norm = (a: { id: string; answer: Answer }) =>
    `${a.answer.outcome} ${a.answer.text.split(a.id).join("<id>")}`;
  const problems: string[] = [];
  for (const other of answers) {
    if (other === missing || other.owners.split("+").includes(role)) continue;
    if (other.answer.outcome === "ok" || /^2\d\d$/.test(other.answer.outcome)) continue;
    if (norm(other) !== norm(missing) && !(await known(other.id)))
      problems.push(
        `${label} as ${role}: ${other.owners}'s id answers "${norm(other).slice(0, 120)}", a missing one "${norm(missing).slice(0, 120)}"`,
      );
  }
  return problems;
}

type PoolId = { table: string; id: string; owners: string };

/** Every id of the pool (one per owner and table) and each table's missing id. */
export function poolIds(pool: IdPool, missing: Record<string, string>): PoolId[] {
  return ALL_TABLES.flatMap((table) => [
    ...(pool[table] ?? []).map((x) => ({ table, ...x })),
    ...(missing[table] !== undefined ? [{ table, id: missing[table], owners: "missing" }] : []),
  ]);
}

/**
 * Refresh tokens "<a>|<b>" to try. Full: every pair of ids. Short: every id as the second half (the
 * one @convex-dev/auth deletes) after a refresh token, as the first half before a session (each of
 * someone's in turn), and in both halves. Never a token with its own session: refreshing that is no
 * attack.
 */
export function refreshTokenPairs(
  ids: PoolId[],
  full: boolean,
  issued: (tokenId: string, sessionId: string) => boolean,
): (readonly [PoolId, PoolId])[] {
  const of = (table: string) => ids.filter((x) => x.table === table && x.owners !== "missing");
  const tokens = of("authRefreshTokens");
  const sessions = of("authSessions");
  const pairs = full
    ? ids.flatMap((x) => ids.map((y) => [x, y] as const))
    : ids.flatMap((x, i) => [
        [tokens[i % tokens.length], x] as const,
        [x, sessions[i % sessions.length]] as const,
        [x, x] as const,
      ]);
  return pairs.filter(([x, y]) => !issued(x.id, y.id));
}
