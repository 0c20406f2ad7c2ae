/**
 * Crash (short version; `npm run drills` kills 20 times): 4 clients write continuously to a child
 * backend that is killed with SIGKILL at random points; every acknowledged write survives whole.
 */
import { expect, test } from "vitest";
import { runCrashDrill, summarizeCrash } from "./lib/crash.ts";

test("crash: kill -9 under 4 writers loses no acknowledged write and applies none by half", async () => {
  const report = await runCrashDrill({ rounds: 3, seed: 11 });
  console.log(`crash: ${summarizeCrash(report)}`);
  expect(report.failures).toEqual([]);
  expect(report.acknowledged).toBeGreaterThan(0);
  expect(report.found).toBe(report.acknowledged);
}, 60_000);
