/**
 * `auth:signIn` with refresh tokens "<id>|<id>" made of ids of every table, and with those ids as
 * codes and verifiers (and, where sign-in attempts leave no rows, as emails): nothing may change, and a
 * refresh token's answer is a garbage token's. One sweep for convex-test and for a started backend.
 */
import { makeFunctionReference } from "convex/server";
import { ROLES, type DrillRole } from "../access-table";
import type { Viewer } from "./canaries";
import { callFunction, type CallWatcher } from "./checked-call";
import { ALL_TABLES } from "./db-snapshot";
import { poolIds, refreshTokenPairs, type IdPool } from "./id-sweep";

export type RefreshTokenSweep<Caller> = {
  pool: IdPool;
  missing: Record<string, string>;
  full: boolean;
  /** An issued token of that session: the library's to refresh, not an attack. */
  issued: (tokenId: string, sessionId: string) => boolean;
  callerOf: (role: DrillRole) => Caller;
  viewerOf: (caller: Caller) => Viewer;
  watcher: CallWatcher;
  /** Also sign in with every id as the email. */
  emails: boolean;
};

export async function refreshTokenSweep<Caller>(sweep: RefreshTokenSweep<Caller>) {
  const signIn = makeFunctionReference<"action">("auth:signIn");
  const problems: string[] = [];
  let calls = 0;
  const ids = poolIds(sweep.pool, sweep.missing);
  const pairs = refreshTokenPairs(ids, sweep.full, sweep.issued);
  const shapes: { label: string; args: Record<string, unknown>; refresh: boolean }[] = [
    ...pairs.map(([x, y]) => ({
      label: `refreshToken ${x.table} of ${x.owners} | ${y.table} of ${y.owners}`,
      args: { refreshToken: `${x.id}|${y.id}` },
      refresh: true,
    })),
    ...ids.flatMap((x) => [
      {
        label: `params.code ${x.table} of ${x.owners}`,
        args: { params: { code: x.id } },
        refresh: false,
      },
      {
        label: `verifier ${x.table} of ${x.owners} with a code`,
        args: { verifier: x.id, params: { code: "123456" } },
        refresh: false,
      },
      ...(sweep.emails
        ? [
            {
              label: `sign-in email ${x.table} of ${x.owners}`,
              args: {
                provider: "customer",
                params: { flow: "signIn", email: x.id, password: "wrong pass" },
              },
              refresh: false,
            },
          ]
        : []),
    ]),
  ];
  const garbage = await callFunction(sweep.callerOf("visitor"), "action", signIn, {
    refreshToken: "garbage|garbage",
  });
  // by role, so each role's calls make one watched run
  for (const [roleIndex, role] of ROLES.entries()) {
    const as = sweep.callerOf(role);
    for (const [i, shape] of shapes.entries()) {
      if (i % ROLES.length !== roleIndex) continue;
      const label = `auth:signIn(${shape.label}) as ${role}`;
      const result = await sweep.watcher.watch(
        {
          viewer: sweep.viewerOf(as),
          label,
          writes: {},
          strict: true,
          sent: JSON.stringify(shape.args),
        },
        () => callFunction(as, "action", signIn, shape.args),
      );
      calls++;
      problems.push(...result.problems);
      if (shape.refresh && (result.outcome !== garbage.outcome || result.text !== garbage.text))
        problems.push(
          `${label}: answered ${result.text.slice(0, 100)}, a garbage token ${garbage.text.slice(0, 100)}`,
        );
    }
  }
  problems.push(...(await sweep.watcher.flush()));
  return {
    calls,
    pairs: pairs.length,
    problems,
    line: `${pairs.length} refresh tokens from ids of ${ALL_TABLES.length} tables, ${ids.length} ids as ${sweep.emails ? "codes, verifiers and emails" : "codes and verifiers"}, in ${calls} calls`,
  };
}
