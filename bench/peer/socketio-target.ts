import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { io, type Socket } from "socket.io-client";
import type { ConnectClients, FanoutTarget } from "../lib/fanout";

/** Starts the Socket.IO peer in its own process (log in a temp dir); its clients are `connectClients`'. */
export async function startPeer(): Promise<FanoutTarget> {
  const dir = mkdtempSync(path.join(tmpdir(), "gharsewa-peer-"));
  const child: ChildProcess = fork(
    new URL("./socketio-server.ts", import.meta.url).pathname,
    ["0", path.join(dir, "positions.log")],
    {
      execArgv: ["--import", "tsx"],
      stdio: "inherit",
    },
  );
  const [{ port }] = (await once(child, "message")) as [{ port: number }];
  return {
    pid: child.pid!,
    clients: {
      module: fileURLToPath(import.meta.url),
      config: { url: `http://127.0.0.1:${port}` },
    },
    async close() {
      child.kill();
      await once(child, "exit");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The peer's simulated clients in a fan-out generator process, driven like the spec's clients were. */
export const connectClients: ConnectClients<{ url: string }> = async ({ url }) => {
  const sockets: Socket[] = [];
  const connect = async (query: Record<string, string>) => {
    // reconnecting as the Convex clients do: under load a handshake can time out, and a socket
    // that never connects would hold the run forever
    const socket = io(url, { transports: ["websocket"], query });
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    return socket;
  };
  return {
    async watch(_index, city, seen) {
      const socket = await connect({ city });
      socket.on("location", (p: { id: string; lat: number }) => seen(p.id, p.lat));
    },
    async reporter(index, city) {
      const socket = await connect({ userId: String(index) });
      return (lat, lng) =>
        new Promise<void>((resolve) =>
          socket.emit("location", { id: String(index), city, lat, lng }, resolve),
        );
    },
    async close() {
      sockets.forEach((s) => s.close());
    },
  };
};
