/**
 * A push service that takes every message (201), on a loopback port: the drills' backends deliver
 * booking alerts to it once instead of retrying an unreachable host for minutes. The backend must
 * allow loopback http endpoints (`PUSH_ALLOW_LOOPBACK_HTTP=1` in its data directory's env.local).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export async function startPushStub(): Promise<{
  origin: string;
  received(): number;
  close(): Promise<void>;
}> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}/push`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
