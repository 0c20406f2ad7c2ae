// Runs a backend in a child process (for the kill -9 test); prints its URL as one JSON line.
import { startBackend } from "../server.ts";
import { fixtureConvexDir } from "./helpers.ts";

const backend = await startBackend({ port: 0, sitePort: 0, dataDir: process.argv[2], convexDir: fixtureConvexDir });
process.stdout.write(`${JSON.stringify({ url: backend.url })}\n`);
