/**
 * Stored files on disk (drills/lib/hostile-files.ts), against the backend started by cli.ts on its real
 * ports: 1 GB of 5 MB uploads in `npm run drills` (200 MB in `npm test`), then a restart on the same data.
 */
import { rmSync } from "node:fs";
import { expect, test } from "vitest";
import { tempDir } from "./lib/app-backend.ts";
import { freePorts } from "./lib/hostile-backend.ts";
import { runFileStorage, summarizeFiles } from "./lib/hostile-files.ts";
import { FULL } from "./lib/drill-size.ts";

test("hostile files: uploads are kept on disk, also across a restart", async () => {
  const dataDir = tempDir("gharsewa-files-");
  try {
    const report = await runFileStorage(
      { dataDir, ports: await freePorts(), seed: false },
      FULL ? 200 : 40,
    );
    console.log(`hostile files: ${summarizeFiles(report)}`);
    expect(report.failures).toEqual([]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 600_000);
