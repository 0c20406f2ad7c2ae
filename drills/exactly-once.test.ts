/**
 * Exactly once (short versions; `npm run drills` runs them longer): mutations that the Convex client
 * resends after a dropped connection — the backend still running, or killed with SIGKILL — apply once.
 */
import { expect, test } from "vitest";
import { runBlipDrill, summarizeBlip } from "./lib/blip.ts";
import { quietly } from "./lib/quiet.ts";
import { runCrashReconnectDrill, summarizeCrashReconnect } from "./lib/crash.ts";

test("blip: connections cut under 4 writers apply every acknowledged write exactly once", async () => {
  const report = await quietly(() => runBlipDrill({ blips: 4, seed: 21 }));
  console.log(`blip: ${summarizeBlip(report)}`);
  expect(report.failures).toEqual([]);
  expect(report.duplicated).toBe(0);
  expect(report.found).toBe(report.acknowledged);
}, 60_000);

test("crash-reconnect: kill -9 under connected writers applies every resent write exactly once", async () => {
  const report = await runCrashReconnectDrill({ kills: 2, seed: 23 });
  console.log(`crash-reconnect: ${summarizeCrashReconnect(report)}`);
  expect(report.failures).toEqual([]);
  expect(report.duplicated).toBe(0);
  expect(report.found).toBe(report.acknowledged);
}, 60_000);
