/**
 * Bad input (fast part; `npm run drills` sends 2,000+): fuzzes every /api/* route of a local backend
 * running convex/ with malformed JSON, wrong types, missing fields, huge bodies, wrong methods, bad
 * uploads and forged or expired tokens.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { PASSWORD, startAppBackend, type AppBackend } from "./lib/app-backend.ts";
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

test("a token that does not verify is a 401 wherever the caller is read, and only there", async () => {
  const stale = { Authorization: "Bearer not-a-token" };
  const refused = async (res: Response) => {
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      success: false,
      code: "UNAUTHENTICATED",
      message: "Send a valid token: Authorization: Bearer <token>.",
    });
  };
  await refused(await fetch(`${app.site}/api/current-locations`, { headers: stale }));
  // signing in replaces the caller's session, so it reads the token too
  await refused(
    await fetch(`${app.site}/api/users/login`, {
      method: "POST",
      headers: { ...stale, "Content-Type": "application/json" },
      body: JSON.stringify({ email: app.accounts.customer.email, password: PASSWORD }),
    }),
  );
  const catalogue = await fetch(`${app.site}/api/services/category/electrical`, { headers: stale });
  expect(catalogue.status).toBe(200);
});
