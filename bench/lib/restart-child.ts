/**
 * Starts a local backend on an existing data directory in a fresh process and reports how long the
 * start took and the process's memory once started (after a full GC), then exits.
 * Usage (forked by bench/sections/durability.ts): restart-child.ts <dataDir> <convexDir>
 */
import { startBackend } from "../../local-backend/server.ts";

const [dataDir, convexDir] = process.argv.slice(2);
const t0 = performance.now();
const backend = await startBackend({ port: 0, sitePort: 0, dataDir, convexDir });
const startMs = performance.now() - t0;
(globalThis as { gc?: () => void }).gc?.();
const { rss, heapUsed } = process.memoryUsage();
await backend.close();
process.send!({ startMs, rss, heapUsed });
process.disconnect();
