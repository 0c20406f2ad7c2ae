/**
 * Bad input (fast part; `npm run drills` sends 2,000+): fuzzes every /api/* route of a local backend
 * running convex/ with malformed JSON, wrong types, missing fields, huge bodies, wrong methods, bad
 * uploads and forged or expired tokens.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { startAppBackend, type AppBackend } from "./lib/app-backend.ts";
import { generateCases, runFuzz, summarize } from "./lib/fuzz.ts";
import { quietly } from "./lib/quiet.ts";

let app: AppBackend;
beforeAll(async () => {
  app = await quietly(() => startAppBackend());
});
afterAll(async () => {
  await app?.close();
});

test("bad input: no 5xx, no stack traces, JSON errors, refused requests change nothing", async () => {
  const report = await quietly(async () => runFuzz(app, await generateCases(app, 120, 42)));
  console.log(`bad input: ${summarize(report)}`);
  expect(report.failures).toEqual([]);
  expect(report.requests).toBe(120);
  expect(report.refused).toBeGreaterThan(90);
}, 120_000);
