/**
 * `npm run drills`: every reliability drill at full size, one result line each (the hostile drill: one
 * per part), then "N passed, M failed" (exit 1 on any failure).
 * `npm run drills -- --only crash,bad-input --requests 3000 --kills 30 --inputs 8000`.
 *
 * access and abuse run under vitest (convex-test needs Vite's import.meta.glob); the others run here
 * against local backends on loopback.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { runActionIsolation, summarizeIsolation } from "./lib/action-isolation.ts";
import { startAppBackend } from "./lib/app-backend.ts";
import { runBlipDrill, summarizeBlip } from "./lib/blip.ts";
import { runBrowserReconnectDrill } from "./lib/browser-reconnect.ts";
import {
  runCrashDrill,
  runCrashReconnectDrill,
  summarizeCrash,
  summarizeCrashReconnect,
} from "./lib/crash.ts";
import { generateCases, runFuzz, summarize } from "./lib/fuzz.ts";
import { FULL_SIZE, runHostileDrill } from "./lib/hostile.ts";
import { quietly } from "./lib/quiet.ts";
import { runReconnectDrill, summarizeReconnect } from "./lib/reconnect.ts";

// every drill at full size, here and in the vitest runs below (lib/drill-size.ts)
process.env.DRILLS_FULL = "1";

const { values: flags } = parseArgs({
  options: {
    only: { type: "string" },
    requests: { type: "string", default: "2200" },
    kills: { type: "string", default: "20" },
    outages: { type: "string", default: "5" },
    seed: { type: "string", default: "1" },
    inputs: { type: "string", default: String(FULL_SIZE.inputs) },
  },
});

type Result = { ok: boolean; line: string; details?: string[] };
type Drill = { name: string; run: () => Promise<Result> };

/** Runs vitest files and keeps the lines the drills print (prefixed with `prefix`). */
function vitest(files: string[], prefixes: string[]): Result {
  const out = spawnSync(
    process.execPath,
    [
      "node_modules/vitest/vitest.mjs",
      "run",
      ...["--project", "drills", "--project", "access-sweep"],
      ...files,
    ],
    {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  // eslint-disable-next-line no-control-regex -- strip colours
  const text = `${out.stdout}\n${out.stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => prefixes.some((p) => l.startsWith(p)));
  const tests = /Tests\s+(.*)/.exec(text)?.[1]?.trim() ?? "no test summary";
  const failed = text
    .split("\n")
    .filter((l) => /^\s*(×|FAIL)\s/.test(l) || /AssertionError|^\s+\+ /.test(l))
    .slice(0, 30);
  return {
    ok: out.status === 0,
    line: `${tests}; ${lines.join(" | ")}`,
    details: out.status === 0 ? undefined : failed,
  };
}

const drills: Drill[] = [
  {
    name: "access",
    // every id of every table in every slot, as every role (npm test runs a sample)
    run: async () =>
      vitest(["drills/access.test.ts", "drills/access-backend.test.ts"], ["access sweep"]),
  },
  {
    name: "bad-input",
    run: async () => {
      const app = await quietly(() => startAppBackend());
      try {
        const cases = await generateCases(app, Number(flags.requests), Number(flags.seed));
        const report = await quietly(() => runFuzz(app, cases));
        const categories = Object.entries(report.byCategory)
          .map(([c, n]) => `${c} ${n}`)
          .join(", ");
        return {
          ok: report.failures.length === 0,
          line: `${summarize(report)} (${categories})`,
          details: report.failures.slice(0, 30),
        };
      } finally {
        await app.close();
      }
    },
  },
  {
    name: "crash",
    run: async () => {
      const report = await runCrashDrill({ rounds: Number(flags.kills), seed: Number(flags.seed) });
      return {
        ok: report.failures.length === 0 && report.found === report.acknowledged,
        line: summarizeCrash(report),
        details: report.failures,
      };
    },
  },
  {
    name: "crash-reconnect",
    run: async () => {
      const report = await runCrashReconnectDrill({
        kills: Math.max(1, Math.round(Number(flags.kills) / 2)),
        seed: Number(flags.seed),
      });
      return {
        ok: report.failures.length === 0,
        line: summarizeCrashReconnect(report),
        details: report.failures,
      };
    },
  },
  {
    name: "blip",
    run: async () => {
      const report = await quietly(() => runBlipDrill({ blips: 15, seed: Number(flags.seed) }));
      return {
        ok: report.failures.length === 0,
        line: summarizeBlip(report),
        details: report.failures,
      };
    },
  },
  {
    name: "reconnect",
    run: async () => {
      const report = await quietly(() => runReconnectDrill({ outages: Number(flags.outages) }));
      const ok =
        report.failures.length === 0 &&
        report.exactlyOnce === report.outages &&
        report.resumed === report.outages;
      return { ok, line: `ConvexClient: ${summarizeReconnect(report)}`, details: report.failures };
    },
  },
  {
    name: "reconnect-browser",
    run: async () => {
      const chromium = process.env.CHROME_PATH ?? "/usr/bin/chromium";
      if (!existsSync(chromium))
        return { ok: false, line: `no Chromium at ${chromium} (set CHROME_PATH)` };
      const report = await quietly(() =>
        runBrowserReconnectDrill({ outages: Math.min(3, Number(flags.outages)) }),
      );
      const ok =
        report.failures.length === 0 &&
        report.exactlyOnce === report.outages &&
        report.resumed === report.outages;
      return {
        ok,
        line: `headless Chromium: ${summarizeReconnect(report)}`,
        details: report.failures,
      };
    },
  },
  {
    name: "hostile",
    run: async () => {
      const parts = await runHostileDrill({
        ...FULL_SIZE,
        inputs: Number(flags.inputs),
        seed: Number(flags.seed),
      });
      return {
        ok: parts.every((p) => p.ok),
        line:
          `${parts.filter((p) => p.ok).length} of ${parts.length} parts passed` +
          parts.map((p) => `\n     ${p.ok ? "pass" : "FAIL"} ${p.name}: ${p.line}`).join(""),
        details: parts.flatMap((p) => p.failures.slice(0, 10).map((f) => `${p.name}: ${f}`)),
      };
    },
  },
  {
    name: "hostile-frames",
    run: async () => vitest(["drills/hostile-frames.test.ts"], ["hostile frames"]),
  },
  {
    name: "hostile-jwks",
    run: async () => vitest(["drills/hostile-jwks.test.ts"], ["hostile jwks"]),
  },
  {
    name: "hostile-cursor",
    run: async () => vitest(["drills/hostile-cursor.test.ts"], ["hostile cursor"]),
  },
  {
    name: "hostile-memory",
    run: async () => vitest(["drills/hostile-memory.test.ts"], ["hostile memory"]),
  },
  {
    name: "hostile-files",
    run: async () => vitest(["drills/hostile-files.test.ts"], ["hostile files"]),
  },
  {
    name: "hostile-uploads",
    run: async () => vitest(["drills/hostile-uploads.test.ts"], ["hostile uploads"]),
  },
  {
    name: "hostile-start-code",
    run: async () => vitest(["drills/hostile-start-code.test.ts"], ["start codes"]),
  },
  {
    name: "hostile-codes",
    run: async () => vitest(["drills/hostile-codes.test.ts"], ["totp ", "sms code "]),
  },
  {
    name: "hostile-wallets",
    run: async () => vitest(["drills/hostile-wallets.test.ts"], ["hostile wallets"]),
  },
  {
    name: "actions",
    run: async () => {
      const report = await runActionIsolation();
      return {
        ok: report.failures.length === 0,
        line: summarizeIsolation(report),
        details: report.failures,
      };
    },
  },
  {
    name: "abuse",
    run: async () => vitest(["drills/abuse.test.ts", "drills/abuse-render.test.tsx"], ["abuse:"]),
  },
];

const only = flags.only?.split(",").map((s) => s.trim());
let passed = 0;
let failed = 0;
for (const drill of drills) {
  if (only && !only.includes(drill.name)) continue;
  const started = Date.now();
  let result: Result;
  try {
    result = await drill.run();
  } catch (error) {
    result = { ok: false, line: `threw: ${(error as Error).stack ?? String(error)}` };
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${result.ok ? "PASS" : "FAIL"} ${drill.name} (${seconds} s): ${result.line}`);
  if (!result.ok) for (const d of result.details ?? []) console.log(`     ${d}`);
  if (result.ok) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
