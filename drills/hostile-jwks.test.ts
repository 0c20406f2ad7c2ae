/**
 * An auth provider's key set that answers huge or slowly (drills/lib/hostile-jwks.ts), against the
 * backend started by cli.ts on its real ports: 100 MB answers and a byte-a-second answer in `npm test`,
 * 300 MB in `npm run drills`. Each call is refused within the outbound time limit, RSS stays bounded.
 */
import { expect, test } from "vitest";
import { runJwksDrill, summarizeJwks } from "./lib/hostile-jwks.ts";
import { FULL } from "./lib/drill-size.ts";

test("hostile jwks: a huge or endless key set costs bounded memory and time", async () => {
  const report = await runJwksDrill({ hugeMb: FULL ? 300 : 100, slow: true });
  console.log(`hostile jwks: ${summarizeJwks(report)}`);
  expect(report.failures).toEqual([]);
}, 120_000);
