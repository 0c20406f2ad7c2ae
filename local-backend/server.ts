// startBackend(): the whole local deployment — sync WebSocket + HTTP API + storage on
// `port`, HTTP actions on `sitePort`, durable data in `dataDir`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { AdminApi, isAdminApiPath } from "./admin-api/admin-api.ts";
import { createTokenVerifier, loadOrCreateSecrets, readEnvFile } from "./auth-keys.ts";
import { startCrons } from "./crons.ts";
import { describeRecovery, TransactionLog, type RecoveryReport } from "./durability/log.ts";
import {
  checkTableNumbers,
  describeIdMigration,
  migrateLegacyIds,
} from "./durability/migrate-ids.ts";
import { SessionRequests, type RequestLimits } from "./durability/session-requests.ts";
import { TableNumbers } from "./durability/table-numbers.ts";
import { Engine } from "./engine/engine.ts";
import { nativeImport, type Importer } from "./engine/modules.ts";
import type { Change } from "./engine/read-set.ts";
import { handleHttpApi, isHttpApiPath } from "./http-api.ts";
import { CORS_HEADERS, requestUrl, serverError } from "./http-util.ts";
import { Subscriptions } from "./read-tracking/subscriptions.ts";
import { corsOriginsFromEnv, handleSite, parseCorsOrigins } from "./site.ts";
import {
  createFileUrl,
  createUploadUrl,
  DEFAULT_MAX_UPLOAD_BYTES,
  handleStorage,
} from "./storage.ts";
import {
  DEFAULT_CONNECTION_LIMITS,
  SyncConnection,
  type ConnectionLimits,
} from "./sync-protocol.ts";

export const HOST = "127.0.0.1";

export interface BackendOptions {
  /** Default 3210; 0 picks a free port. */
  port?: number;
  /** Default 3211; 0 picks a free port. */
  sitePort?: number;
  /** Default ".data" (or $LOCAL_BACKEND_DATA). */
  dataDir?: string;
  /** Default "convex". */
  convexDir?: string;
  /** The web app origin, SITE_URL for auth redirects. Default http://127.0.0.1:5173. */
  webOrigin?: string;
  maxUploadBytes?: number;
  /** Extra env vars for functions (on top of <dataDir>/env.local). */
  env?: Record<string, string>;
  importer?: Importer;
  /** Ping interval for sync sockets (the client needs one at least every 60 s). */
  pingMs?: number;
  compactionCheckMs?: number;
  /** How many sync mutation results are kept to answer resent mutations (see durability/session-requests.ts). */
  requestLimits?: RequestLimits;
  /** Origins besides webOrigin whose pages may read HTTP action responses. Default $LOCAL_BACKEND_CORS_ORIGINS. */
  corsOrigins?: string[];
  /** Start from a corrupt log: keep its intact records, move the damaged bytes aside (durability/recovery.ts). */
  salvage?: boolean;
  /** What one sync connection may ask and hold (sync-protocol.ts, README "Limits"). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Run `convexDir`'s sources even when the data directory holds code pushed by the Convex CLI. */
  sourceCode?: boolean;
}

export interface Backend {
  url: string;
  siteUrl: string;
  adminKey: string;
  dataDir: string;
  engine: Engine;
  subscriptions: Subscriptions;
  recovery: RecoveryReport;
  /** Mutation results by (sessionId, requestId): a resent mutation is answered from here. */
  requests: SessionRequests;
  /** Loads new modules (from `convexDir`, default: the directory running now); data is untouched. */
  reload(importer: Importer, convexDir?: string): Promise<void>;
  /** The code a CLI push deployed, when that is what runs. */
  pushedCodeDir: string | null;
  compact(): void;
  close(): Promise<void>;
}

type Handlers = {
  cloud: (req: IncomingMessage, res: ServerResponse) => void;
  site: (req: IncomingMessage, res: ServerResponse) => void;
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
};

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => resolve((server.address() as AddressInfo).port));
  });

export async function startBackend(options: BackendOptions = {}): Promise<Backend> {
  const dataDir = path.resolve(options.dataDir ?? process.env.LOCAL_BACKEND_DATA ?? ".data");
  const convexDir = path.resolve(options.convexDir ?? "convex");
  const webOrigin = options.webOrigin ?? process.env.SITE_URL ?? `http://${HOST}:5173`;
  const allowedOrigins = parseCorsOrigins(
    webOrigin,
    options.corsOrigins ?? corsOriginsFromEnv(process.env.LOCAL_BACKEND_CORS_ORIGINS),
  );
  const log = new TransactionLog(dataDir);
  const secrets = await loadOrCreateSecrets(dataDir);

  // The ports are bound before the engine exists because their URLs are part of the functions'
  // environment. Until the recovered state is loaded, requests and WebSocket upgrades wait for the
  // handlers below: a client reconnecting to a restarting backend must not get a silent socket.
  let serve!: (handlers: Handlers) => void;
  const handlers = new Promise<Handlers>((resolve) => (serve = resolve));
  // Whatever a handler throws ends its own request or socket only, never the process.
  const dispatch = (req: IncomingMessage, end: { destroy(): void }, run: (h: Handlers) => void) =>
    void handlers.then(run).catch((error) => {
      serverError(error, `${req.method} ${req.url}`);
      end.destroy();
    });
  const cloud = createServer((req, res) => dispatch(req, res, (h) => h.cloud(req, res)));
  const site = createServer((req, res) => dispatch(req, res, (h) => h.site(req, res)));
  cloud.on("upgrade", (req, socket: Duplex, head) => {
    // Node's own error listener is gone once a socket is upgraded: a reset with none would be fatal.
    socket.on("error", () => socket.destroy());
    dispatch(req, socket, (h) => h.upgrade(req, socket, head));
  });
  const port = await listen(cloud, options.port ?? 3210);
  const sitePort = await listen(site, options.sitePort ?? 3211);
  const url = `http://${HOST}:${port}`;
  const siteUrl = `http://${HOST}:${sitePort}`;

  // The generated VAPID keys give way to ones the operator sets (environment, env.local, options.env).
  for (const [name, value] of Object.entries(secrets.vapid)) process.env[name] ??= value;
  Object.assign(process.env, readEnvFile(path.join(dataDir, "env.local")), options.env ?? {}, {
    CONVEX_CLOUD_URL: url,
    CONVEX_SITE_URL: siteUrl,
    SITE_URL: webOrigin,
    JWT_PRIVATE_KEY: secrets.JWT_PRIVATE_KEY,
    JWKS: secrets.JWKS,
  });

  let recovered: ReturnType<TransactionLog["recover"]>;
  let tables: TableNumbers;
  try {
    recovered = log.recover({ salvage: options.salvage });
    tables = TableNumbers.open(dataDir);
    checkTableNumbers(recovered.state, tables);
  } catch (error) {
    log.close();
    // The handlers will never exist: nothing may keep waiting for them.
    const closing = Promise.all([
      new Promise((r) => cloud.close(r)),
      new Promise((r) => site.close(r)),
    ]);
    cloud.closeAllConnections();
    site.closeAllConnections();
    await closing;
    throw error;
  }
  const { state, report } = recovered;
  for (const line of describeRecovery(report, log)) console.warn(line);
  const migrated = migrateLegacyIds(state, tables, log, secrets.storageSecret);
  if (migrated) console.warn(describeIdMigration(migrated));

  const requests = new SessionRequests(options.requestLimits);
  requests.load(state.requests);
  const signer = { secret: secrets.storageSecret, baseUrl: () => url };
  const fileTypes = new Map(state.files);
  let isClosed = false;
  const pendingFiles = new Set<Promise<void>>();
  // Created after the engine (it needs it) but referenced by the engine's commit hook.
  const reactor: { subscriptions?: Subscriptions } = {};
  const durable = async () => {
    while (pendingFiles.size > 0) await Promise.all(pendingFiles);
    await log.sync();
  };
  // A data directory that received a CLI push runs the pushed bundles, as a Convex deployment would.
  const admin = new AdminApi(dataDir, secrets.adminKey);
  const pushedDir = options.sourceCode ? null : admin.pushedCodeDir();
  const moduleDir = pushedDir ?? convexDir;
  const importer = pushedDir ? nativeImport : (options.importer ?? nativeImport);
  const engine = await Engine.create(moduleDir, importer, tables, {
    onCommit(ts, changes: Change[], request) {
      if (isClosed) return;
      const { nextDocId, lastCreationTime } = engine.database.counters();
      log.appendCommit(ts, changes, nextDocId, lastCreationTime, request);
      if (request) requests.record(request.sessionId, request.requestId, ts, request.result);
      for (const change of changes) {
        if (change.table === "_storage" && change.after === null) {
          fileTypes.delete(change.id);
          // Only once the deletion is durable: a crash before must not leave a document without bytes.
          void log.sync().then(
            () => log.removeFile(change.id),
            () => {},
          );
        }
      }
      reactor.subscriptions?.onCommit(ts);
    },
    onFileStored(storageId: string, blob: Blob) {
      if (isClosed) return;
      if (blob.type) engine.database.setContentType(storageId, blob.type);
      fileTypes.set(storageId, blob.type);
      const write = blob
        .arrayBuffer()
        .then((buffer) => log.appendFile(storageId, blob.type, new Uint8Array(buffer)));
      pendingFiles.add(write);
      void write.finally(() => pendingFiles.delete(write));
    },
    storageUrl: (storageId) => createFileUrl(signer, storageId),
    uploadUrl: () => createUploadUrl(signer),
    systemModules: admin.systemModules(),
    onExecution: (execution) => admin.logs.record(execution),
  });

  // Restore persisted state into convex-test's database.
  const files = new Map<string, Blob>();
  for (const [id, type] of fileTypes) {
    const bytes = log.readFile(id);
    if (bytes) files.set(id, new Blob([new Uint8Array(bytes)], { type }));
  }
  engine.restore({
    docs: [...state.docs.values()].map((doc) => {
      const type = fileTypes.get(doc._id);
      return type ? { ...doc, contentType: type } : doc;
    }),
    files,
    ts: state.ts,
    nextDocId: state.nextDocId,
    lastCreationTime: state.lastCreationTime,
  });
  const subscriptions = new Subscriptions(engine, durable);
  reactor.subscriptions = subscriptions;
  await engine.rearmScheduled();
  let stopCrons = await startCrons(engine);
  const reload = async (modules: Importer, dir?: string) => {
    await engine.reload(modules, dir);
    stopCrons();
    stopCrons = await startCrons(engine);
  };
  admin.attach({
    engine,
    urls: () => ({ convexCloudUrl: url, convexSiteUrl: siteUrl }),
    activate: (dir) => reload(nativeImport, dir),
  });

  const verifyToken = createTokenVerifier(secrets.JWKS, () => siteUrl);
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
  const deps = {
    engine,
    subscriptions,
    verifyToken,
    adminKey: secrets.adminKey,
    durable,
    requests,
    limits,
  };
  const storageDeps = {
    engine,
    ...signer,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    durable,
  };

  // No request can stop the process: a malformed target is a 400, anything else a logged 500.
  const handle =
    (fn: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>) =>
    (req: IncomingMessage, res: ServerResponse) => {
      if (requestUrl(req, url) === null) {
        res.writeHead(400, { "Content-Type": "text/plain", ...CORS_HEADERS });
        return void res.end("Bad request target");
      }
      fn(req, res).catch((error) => {
        const message = serverError(error, `${req.method} ${req.url}`);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain", ...CORS_HEADERS });
        res.end(message);
      });
    };

  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes });
  const connections = new Set<SyncConnection>();
  serve({
    cloud: handle(async (req, res) => {
      const reqUrl = new URL(req.url ?? "/", url);
      if (req.method === "OPTIONS") {
        res.writeHead(204, CORS_HEADERS);
        return void res.end();
      }
      if (isHttpApiPath(reqUrl.pathname)) return handleHttpApi(req, res, reqUrl.pathname, deps);
      if (isAdminApiPath(reqUrl.pathname)) return admin.handle(req, res, reqUrl);
      if (reqUrl.pathname.startsWith("/api/storage/"))
        return handleStorage(req, res, reqUrl, storageDeps);
      if (reqUrl.pathname === "/version" || reqUrl.pathname === "/instance_name") {
        res.writeHead(200, { "Content-Type": "text/plain", ...CORS_HEADERS });
        return void res.end(reqUrl.pathname === "/version" ? "local-backend" : "local");
      }
      res.writeHead(404, { "Content-Type": "text/plain", ...CORS_HEADERS });
      res.end("Not found");
    }),
    site: handle((req, res) =>
      handleSite(req, res, { engine, verifyToken, durable, corsOrigins: allowedOrigins }),
    ),
    upgrade(req, socket, head) {
      const target = requestUrl(req, url);
      if (target === null || !/^\/api\/[^/]+\/sync$/.test(target.pathname)) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const connection = new SyncConnection(ws, deps);
        connections.add(connection);
        ws.on("close", () => connections.delete(connection));
      });
    },
  });
  const pinger = setInterval(() => {
    for (const c of connections) c.ping();
  }, options.pingMs ?? 20_000);
  const compact = () => {
    requests.prune();
    log.compact({
      ts: engine.currentTs(),
      ...engine.database.counters(),
      docs: engine.database.documents(),
      files: fileTypes,
      requests: requests.records(),
    });
  };
  const compactor = setInterval(() => {
    requests.prune();
    if (log.needsCompaction()) compact();
  }, options.compactionCheckMs ?? 10_000);
  pinger.unref();
  compactor.unref();

  let closed: Promise<void> | undefined;
  return {
    url,
    siteUrl,
    adminKey: secrets.adminKey,
    dataDir,
    engine,
    subscriptions,
    recovery: report,
    requests,
    reload,
    get pushedCodeDir() {
      const pushed = admin.pushedCodeDir();
      return pushed !== null && path.resolve(pushed) === engine.convexDir ? pushed : null;
    },
    compact,
    close() {
      closed ??= (async () => {
        clearInterval(pinger);
        clearInterval(compactor);
        stopCrons();
        for (const client of wss.clients) client.terminate();
        const closing = Promise.all([
          new Promise((r) => cloud.close(r)),
          new Promise((r) => site.close(r)),
        ]);
        cloud.closeAllConnections();
        site.closeAllConnections();
        await closing;
        await durable();
        if (log.needsCompaction()) compact();
        isClosed = true;
        log.close();
        engine.dispose();
      })();
      return closed;
    },
  };
}
