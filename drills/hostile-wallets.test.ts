/**
 * Hostile wallet returns and cash answers (drills/lib/hostile-wallets.ts) against the backend started
 * as `npm start` starts it, its eSewa and Khalti stand-ins on its real site port, with the access
 * drill's cast: each hostile call is refused and nothing is booked twice.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { startCastBackend, type CastBackend } from "./lib/cast-backend.ts";
import { runHostileWallets } from "./lib/hostile-wallets.ts";

let run: CastBackend;

beforeAll(async () => {
  run = await startCastBackend("gharsewa-wallets-");
}, 600_000);

afterAll(async () => {
  await run?.stop();
});

test("hostile wallets: forged, replayed and foreign returns and wrong-party cash book nothing", async () => {
  const report = await runHostileWallets(run);
  console.log(`hostile wallets:\n  ${report.lines.join("\n  ")}`);
  expect(report.failures).toEqual([]);
}, 300_000);
