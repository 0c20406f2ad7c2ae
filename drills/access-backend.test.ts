/**
 * The access drill against a started backend (`local-backend/cli.ts --serve … --run seed:init`, as
 * `npm start` runs it, in a child process on loopback ports 4600-4699): ids of every table and of
 * other users in every id-typed argument of every public function, in the routes that take ids and
 * in refresh tokens, as every role, over the backend's real HTTP API (lib/backend-access.ts).
 * DRILLS_FULL=1 (npm run drills) throws every id at every slot as every role.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "./lib/app-backend.ts";
import { BackendAccessSweep, type SweepReport } from "./lib/backend-access";
import { buildBackendCast } from "./lib/backend-fixtures";
import { freePorts, startCli, type HostileBackend } from "./lib/hostile-backend.ts";
import { publicFunctions } from "./lib/id-sweep";
import { startPushStub } from "./lib/push-stub";
import { FULL } from "./lib/drill-size.ts";

/** Generous: the short version takes about half a minute of CPU, which a shared machine stretches. */
const LONG = FULL ? 1_800_000 : 600_000;

const modules = import.meta.glob(["../convex/**/*.*s", "!../convex/**/*.test.*s"]);

let backend: HostileBackend;
let push: Awaited<ReturnType<typeof startPushStub>>;
let sweep: BackendAccessSweep;
let tables: { tables: number; empty: string[] };

beforeAll(async () => {
  const dataDir = tempDir("gharsewa-access-");
  // booking alerts go to a loopback push service (delivered once, not retried for minutes)
  writeFileSync(path.join(dataDir, "env.local"), "PUSH_ALLOW_LOOPBACK_HTTP=1\n");
  push = await startPushStub();
  // without the demo data, whose professionals the crons move every minute
  backend = await startCli({ dataDir, ports: await freePorts(), demo: false });
  const admin = backend.admin;
  if (admin === undefined) throw new Error("the drill backend made no admin");
  const cast = await buildBackendCast({
    url: backend.url,
    siteUrl: backend.siteUrl,
    dataDir,
    admin,
    pushService: push.origin,
  });
  sweep = new BackendAccessSweep(cast, backend.siteUrl, FULL);
  tables = await sweep.prepare();
}, LONG);

afterAll(async () => {
  await push?.close();
  if (backend === undefined) return;
  await backend.stop();
  rmSync(backend.dataDir, { recursive: true, force: true });
});

function check(part: string, report: SweepReport) {
  console.log(
    `access sweep (started backend, ${part}${FULL ? ", full" : ""}): ${report.line}, ${report.problems.length} problems`,
  );
  expect(report.problems).toEqual([]);
}

describe("access sweep on a started backend", () => {
  test("every table has a document to take ids from, but those only OAuth and codes fill", () => {
    // no provider here redirects or sends codes, and failed passwords are counted in rateLimits
    // (model/rateLimit.ts), not auth's own table: those take well-formed ids of nothing
    // and a no-show strike needs a booking 10+ minutes past its time, which a new backend has not
    expect([...tables.empty].sort()).toEqual([
      "authRateLimits",
      "authVerificationCodes",
      "authVerifiers",
      "noShowStrikes",
    ]);
  });

  test(
    "ids of every table and of other users in every id-typed argument of every function change nothing they may not and leak nothing",
    async () => {
      const functions = (await publicFunctions(modules)).map((fn) => ({
        ...fn,
        name: fn.name.replace(/^\.\.\/convex\//, ""),
      }));
      expect(functions.length).toBeGreaterThan(40);
      check("functions", await sweep.functions(functions));
    },
    LONG,
  );

  test(
    "ids of every table in /api/bookings/{id}, the location's userId and storage URLs change nothing they may not and leak nothing",
    async () => check("routes", await sweep.routes()),
    LONG,
  );

  test(
    "refresh tokens, codes and verifiers made of ids of every table change nothing and answer as a garbage token does",
    async () => check("auth ids", await sweep.refreshTokens()),
    LONG,
  );
});
