/**
 * Actions and HTTP actions run apart from queries and mutations: while a CPU-bound action loops,
 * while sign-ins check passwords in parallel and while 16 clients post 8 MB bodies to an HTTP action,
 * another client's settings:get keeps its p99 under 100 ms (drills/lib/action-isolation.ts; the
 * backend as `npm start` runs it, on its real ports).
 */
import { expect, test } from "vitest";
import { runActionIsolation, summarizeIsolation } from "./lib/action-isolation.ts";

test("a CPU-bound action, parallel sign-ins and large bodies posted do not delay another client's query", async () => {
  const report = await runActionIsolation();
  console.log(`action isolation: ${summarizeIsolation(report)}`);
  expect(report.failures).toEqual([]);
}, 300_000);
