/**
 * Reconnect (short version; `npm run drills` also runs it in headless Chromium): the backend stops and
 * restarts under a connected ConvexClient, which reconnects by itself; the subscription resumes and a
 * mutation made during the outage is applied exactly once.
 */
import { expect, test } from "vitest";
import { runReconnectDrill, summarizeReconnect } from "./lib/reconnect.ts";

test("reconnect: subscription resumes and the outage mutation is applied exactly once", async () => {
  const report = await runReconnectDrill({ outages: 2 });
  console.log(`reconnect: ${summarizeReconnect(report)}`);
  expect(report.failures).toEqual([]);
  expect(report.exactlyOnce).toBe(2);
  expect(report.resumed).toBe(2);
}, 60_000);
