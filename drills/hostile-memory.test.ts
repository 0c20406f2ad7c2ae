/**
 * Floods whose size a visitor picks (drills/lib/hostile-memory.ts) against the backend started as
 * `npm start` starts it, on its real ports: 40 × 5 MB query arguments and 200 × 1 MB journals in
 * `npm run drills`, 12 × 5 MB and 60 × 1 MB in `npm test`. RSS grows ≤ 100 MB and comes back down.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { tempDir } from "./lib/app-backend.ts";
import { freePorts, startCli, type HostileBackend } from "./lib/hostile-backend.ts";
import { runMemoryFloods, summarizeMemory } from "./lib/hostile-memory.ts";
import { FULL } from "./lib/drill-size.ts";

let backend: HostileBackend;
const dataDir = tempDir("gharsewa-memory-");

beforeAll(async () => {
  backend = await startCli({ dataDir, ports: await freePorts() });
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("hostile memory: large query arguments and journals are not kept", async () => {
  const { phases, failures } = await runMemoryFloods(
    backend,
    FULL
      ? { queries: 40, queryMb: 5, journals: 200, journalMb: 1, quietMs: 60_000 }
      : { queries: 12, queryMb: 5, journals: 60, journalMb: 1, quietMs: 60_000 },
  );
  console.log(`hostile memory: ${summarizeMemory(phases)}`);
  expect(failures).toEqual([]);
}, 300_000);
