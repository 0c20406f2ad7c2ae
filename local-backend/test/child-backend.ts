// Runs a backend in a child process (kill -9 test, benchmarks); prints its URLs as one JSON line.
// Usage: child-backend.ts <dataDir> [convexDir]
import { startBackend } from "../server.ts";
import { fixtureConvexDir } from "./helpers.ts";

const backend = await startBackend({
  port: 0,
  sitePort: 0,
  dataDir: process.argv[2],
  convexDir: process.argv[3] ?? fixtureConvexDir,
});
process.stdout.write(
  `${JSON.stringify({ url: backend.url, siteUrl: backend.siteUrl, pid: process.pid })}\n`,
);
