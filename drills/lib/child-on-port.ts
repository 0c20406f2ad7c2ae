// local-backend/test/child-backend.ts with a fixed port, so clients can reconnect to the restarted child.
// Usage: child-on-port.ts <dataDir> <convexDir> <port>
import { startBackend } from "../../local-backend/server.ts";

const backend = await startBackend({
  port: Number(process.argv[4]),
  sitePort: 0,
  dataDir: process.argv[2],
  convexDir: process.argv[3],
});
process.stdout.write(
  `${JSON.stringify({ url: backend.url, siteUrl: backend.siteUrl, pid: process.pid })}\n`,
);
