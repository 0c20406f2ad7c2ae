/**
 * Clickjacking (drills/lib/hostile-frames.ts): the backend started as `npm start` starts it serves the
 * web app on its real web port with X-Frame-Options DENY and CSP frame-ancestors 'none' on every answer.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { tempDir } from "./lib/app-backend.ts";
import { freePorts, startCli, type HostileBackend } from "./lib/hostile-backend.ts";
import { runFrameCheck, summarizeFrames } from "./lib/hostile-frames.ts";

let backend: HostileBackend;
const dataDir = tempDir("gharsewa-frames-");

beforeAll(async () => {
  backend = await startCli({ dataDir, ports: await freePorts(), seed: false });
}, 60_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("hostile frames: no answer of the web port may be shown in another site's frame", async () => {
  const report = await runFrameCheck(backend);
  console.log(`hostile frames: ${summarizeFrames(report)}`);
  expect(report.framable).toEqual([]);
});
