// Which handler answers what: the cloud port (HTTP API, Convex CLI's admin API, storage, sync WebSocket
// upgrades) and the site port (HTTP actions).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { isAdminApiPath, type AdminApi } from "./admin-api/admin-api.ts";
import { handleHttpApi, isHttpApiPath } from "./http-api.ts";
import { answerFailure, CORS_HEADERS, requestUrl } from "./http-util.ts";
import { handleSite, type SiteDeps } from "./site.ts";
import { EsewaStandIn } from "./stand-ins/esewa.ts";
import { KhaltiStandIn } from "./stand-ins/khalti.ts";
import { isOutboxPath, type Outbox } from "./stand-ins/outbox.ts";
import { handleStorage, type StorageDeps } from "./storage.ts";
import { SyncConnection, type SyncDeps } from "./sync-protocol.ts";

export interface Handlers {
  cloud: (req: IncomingMessage, res: ServerResponse) => void;
  site: (req: IncomingMessage, res: ServerResponse) => void;
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

export interface RoutingDeps {
  /** The cloud port's URL. */
  url: string;
  admin: AdminApi;
  sync: SyncDeps;
  storage: StorageDeps;
  site: SiteDeps;
  /** The gateways' stand-in (stand-ins/outbox.ts), served under /outbox on the site port. */
  outbox: Outbox;
  /** The wallets' stand-ins (stand-ins/esewa.ts, khalti.ts), under /esewa and /khalti on the site port. */
  wallets: { esewa: EsewaStandIn; khalti: KhaltiStandIn };
  /** Ping interval for sync sockets (the client needs one at least every 60 s). */
  pingMs: number;
}

export interface Routes {
  handlers: Handlers;
  /** Stops the pings and terminates every sync socket. */
  close(): void;
}

/**
 * No request can stop the process: a malformed target is a 400 (`url` null: the handler checks the
 * target itself), anything else a logged 500.
 */
const guarded =
  (
    url: string | null,
    fn: (req: IncomingMessage, res: ServerResponse) => Promise<unknown> | undefined,
  ) =>
  (req: IncomingMessage, res: ServerResponse) => {
    if (url !== null && requestUrl(req, url) === null) {
      res.writeHead(400, { "Content-Type": "text/plain", ...CORS_HEADERS });
      return void res.end("Bad request target");
    }
    try {
      fn(req, res)?.catch((error: unknown) => answerFailure(req, res, error));
    } catch (error) {
      answerFailure(req, res, error);
    }
  };

export function createRoutes(deps: RoutingDeps): Routes {
  const { url } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.sync.limits.maxFrameBytes });
  const connections = new Set<SyncConnection>();
  const handlers: Handlers = {
    cloud: guarded(url, async (req, res) => {
      const reqUrl = new URL(req.url ?? "/", url);
      if (req.method === "OPTIONS") {
        res.writeHead(204, CORS_HEADERS);
        return void res.end();
      }
      if (isHttpApiPath(reqUrl.pathname))
        return handleHttpApi(req, res, reqUrl.pathname, deps.sync);
      if (isAdminApiPath(reqUrl.pathname)) return deps.admin.handle(req, res, reqUrl);
      if (reqUrl.pathname.startsWith("/api/storage/"))
        return handleStorage(req, res, reqUrl, deps.storage);
      if (reqUrl.pathname === "/version" || reqUrl.pathname === "/instance_name") {
        res.writeHead(200, { "Content-Type": "text/plain", ...CORS_HEADERS });
        return void res.end(reqUrl.pathname === "/version" ? "local-backend" : "local");
      }
      res.writeHead(404, { "Content-Type": "text/plain", ...CORS_HEADERS });
      res.end("Not found");
    }),
    site: guarded(null, (req, res) => {
      const target = requestUrl(req, deps.site.siteUrl);
      if (target !== null && isOutboxPath(target.pathname))
        return deps.outbox.handle(req, res, target);
      if (target !== null && EsewaStandIn.matches(target.pathname))
        return deps.wallets.esewa.handle(req, res, target);
      if (target !== null && KhaltiStandIn.matches(target.pathname))
        return deps.wallets.khalti.handle(req, res, target);
      return handleSite(req, res, deps.site);
    }),
    upgrade(req, socket, head) {
      const target = requestUrl(req, url);
      if (target === null || !/^\/api\/[^/]+\/sync$/.test(target.pathname)) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const connection = new SyncConnection(ws, deps.sync);
        connections.add(connection);
        ws.on("close", () => connections.delete(connection));
      });
    },
  };
  const pinger = setInterval(() => {
    for (const c of connections) c.ping();
  }, deps.pingMs);
  pinger.unref();
  return {
    handlers,
    close() {
      clearInterval(pinger);
      for (const client of wss.clients) client.terminate();
    },
  };
}
