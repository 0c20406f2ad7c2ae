/**
 * Three cheap accounts flood the app's upload URLs with 5 MB files they never attach
 * (drills/lib/hostile-uploads.ts), against the backend started as `npm start` starts it, on its real
 * ports: 2 files of PNG magic bytes and noise and 7 with a valid PNG header each (4 and 10 in
 * `npm run drills`). The header check refuses the first, the quota of unattached uploads stops the
 * second at 30 MB an account, and RSS grows ≤ 100 MB.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { tempDir } from "./lib/app-backend.ts";
import { freePorts, startCli, type HostileBackend } from "./lib/hostile-backend.ts";
import { runUploadFlood, summarizeUploadFlood } from "./lib/hostile-uploads.ts";
import { FULL } from "./lib/drill-size.ts";

let backend: HostileBackend;
const dataDir = tempDir("gharsewa-uploads-");

beforeAll(async () => {
  backend = await startCli({ dataDir, ports: await freePorts(), demo: false });
}, 60_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("hostile uploads: files that only begin like a PNG are refused, unattached ones stop at the quota", async () => {
  const report = await runUploadFlood(
    backend,
    FULL
      ? { accounts: 3, magicOnly: 4, validHeader: 10 }
      : { accounts: 3, magicOnly: 2, validHeader: 7 },
  );
  console.log(`hostile uploads: ${summarizeUploadFlood(report)}`);
  expect(report.failures).toEqual([]);
}, 120_000);
