/**
 * Hand-made pagination cursors (drills/lib/hostile-cursor.ts) against the backend started as `npm start`
 * starts it, on its real ports: as endCursor, cursor and query journal, none returns more than numItems.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { tempDir } from "./lib/app-backend.ts";
import { freePorts, startCli, type HostileBackend } from "./lib/hostile-backend.ts";
import { runCursorForgery, summarizeCursor } from "./lib/hostile-cursor.ts";

let backend: HostileBackend;
const dataDir = tempDir("gharsewa-cursor-");

beforeAll(async () => {
  backend = await startCli({ dataDir, ports: await freePorts() });
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("hostile cursor: a hand-made cursor or journal never lifts the page size", async () => {
  const report = await runCursorForgery(backend);
  console.log(`hostile cursor: ${summarizeCursor(report)}`);
  expect(report.lifted).toEqual([]);
}, 180_000);
