// startBackend(): the whole local deployment — sync WebSocket + HTTP API + storage on
// `port`, HTTP actions on `sitePort`, durable data in `dataDir`. This file is the lifecycle (ports,
// environment, start order, close); persistence.ts owns the data directory, routing.ts the requests.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Duplex } from "node:stream";
import { AdminApi } from "./admin-api/admin-api.ts";
import { AuthConfigVerifier } from "./auth-config.ts";
import { loadOrCreateSecrets, readEnvFile } from "./auth-keys.ts";
import { startCrons } from "./crons.ts";
import { TransactionLog, type RecoveryReport } from "./durability/log.ts";
import type { RequestLimits, SessionRequests } from "./durability/session-requests.ts";
import { Engine } from "./engine/engine.ts";
import { nativeImport, type Importer } from "./engine/modules.ts";
import { useCursorSecret } from "./engine/pagination.ts";
import { serverError } from "./http-util.ts";
import { installLeanResponse } from "./lean-fetch.ts";
import { Persistence } from "./persistence.ts";
import { Subscriptions } from "./read-tracking/subscriptions.ts";
import { createRoutes, type Handlers } from "./routing.ts";
import { ESEWA_PREFIX, ESEWA_UAT, EsewaStandIn } from "./stand-ins/esewa.ts";
import { KHALTI_LOCAL_KEY, KHALTI_PREFIX, KhaltiStandIn } from "./stand-ins/khalti.ts";
import { Outbox, OUTBOX_PREFIX } from "./stand-ins/outbox.ts";
import { corsOriginsFromEnv, parseCorsOrigins } from "./site.ts";
import { createFileUrl, createUploadUrl, DEFAULT_MAX_UPLOAD_BYTES } from "./storage.ts";
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from "./sync-protocol.ts";

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

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => resolve((server.address() as AddressInfo).port));
  });

/**
 * The two ports, bound before the engine exists because their URLs are part of the functions'
 * environment. Until `serve` hands over the handlers, requests and WebSocket upgrades wait for them: a
 * client reconnecting to a restarting backend must not get a silent socket.
 */
async function bindPorts(port: number, sitePort: number) {
  let serve!: (handlers: Handlers) => void;
  let ready: Handlers | null = null;
  const handlers = new Promise<Handlers>(
    (resolve) =>
      (serve = (h) => {
        ready = h;
        resolve(h);
      }),
  );
  // Whatever a handler throws ends its own request or socket only, never the process.
  const failed = (req: IncomingMessage, end: { destroy(): void }, error: unknown) => {
    serverError(error, `${req.method} ${req.url}`);
    end.destroy();
  };
  // Once the handlers exist a request goes straight to them (no promise per request).
  const dispatch = (req: IncomingMessage, end: { destroy(): void }, run: (h: Handlers) => void) => {
    if (ready === null) return void handlers.then(run).catch((error) => failed(req, end, error));
    try {
      run(ready);
    } catch (error) {
      failed(req, end, error);
    }
  };
  const cloud = createServer((req, res) => dispatch(req, res, (h) => h.cloud(req, res)));
  const site = createServer((req, res) => dispatch(req, res, (h) => h.site(req, res)));
  cloud.on("upgrade", (req, socket: Duplex, head) => {
    // Node's own error listener is gone once a socket is upgraded: a reset with none would be fatal.
    socket.on("error", () => socket.destroy());
    dispatch(req, socket, (h) => h.upgrade(req, socket, head));
  });
  const url = `http://${HOST}:${await listen(cloud, port)}`;
  const siteUrl = `http://${HOST}:${await listen(site, sitePort)}`;
  return {
    url,
    siteUrl,
    serve,
    /** Stops listening and ends every open connection. */
    async close() {
      const closing = Promise.all([
        new Promise((r) => cloud.close(r)),
        new Promise((r) => site.close(r)),
      ]);
      cloud.closeAllConnections();
      site.closeAllConnections();
      await closing;
    },
  };
}

export async function startBackend(options: BackendOptions = {}): Promise<Backend> {
  // The functions' global Response, as Convex's runtime has its own (lean-fetch.ts).
  installLeanResponse();
  const dataDir = path.resolve(options.dataDir ?? process.env.LOCAL_BACKEND_DATA ?? ".data");
  const convexDir = path.resolve(options.convexDir ?? "convex");
  const webOrigin = options.webOrigin ?? process.env.SITE_URL ?? `http://${HOST}:5173`;
  const allowedOrigins = parseCorsOrigins(
    webOrigin,
    options.corsOrigins ?? corsOriginsFromEnv(process.env.LOCAL_BACKEND_CORS_ORIGINS),
  );
  const log = new TransactionLog(dataDir);
  const secrets = await loadOrCreateSecrets(dataDir);
  const ports = await bindPorts(options.port ?? 3210, options.sitePort ?? 3211);
  const { url, siteUrl } = ports;

  // The generated VAPID keys give way to ones the operator sets (environment, env.local, options.env).
  for (const [name, value] of Object.entries(secrets.vapid)) process.env[name] ??= value;
  const configured = { ...readEnvFile(path.join(dataDir, "env.local")), ...options.env };
  // Codes go to this backend's outbox unless env.local or options.env name real gateways.
  const outbox = new Outbox({ resendApiKey: "local-outbox", sparrowToken: "local-outbox" });
  if (configured.EMAIL_API_URL === undefined && configured.SMS_API_URL === undefined) {
    Object.assign(process.env, {
      EMAIL_API_URL: `${siteUrl}${OUTBOX_PREFIX}/resend`,
      RESEND_API_KEY: "local-outbox",
      SMS_API_URL: `${siteUrl}${OUTBOX_PREFIX}/sparrow/v2/sms/`,
      SPARROW_SMS_TOKEN: "local-outbox",
      SPARROW_SMS_FROM: "GharSewa",
      DELIVERY_ALLOW_LOOPBACK_HTTP: "1",
    });
  }
  // Payments go to this backend's wallet stand-ins unless env.local or options.env name real hosts.
  const wallets = { esewa: new EsewaStandIn(ESEWA_UAT), khalti: new KhaltiStandIn(siteUrl) };
  if (configured.ESEWA_BASE_URL === undefined && configured.KHALTI_BASE_URL === undefined) {
    Object.assign(process.env, {
      ESEWA_BASE_URL: `${siteUrl}${ESEWA_PREFIX}`,
      ESEWA_PRODUCT_CODE: ESEWA_UAT.productCode,
      ESEWA_SECRET_KEY: ESEWA_UAT.secretKey,
      KHALTI_BASE_URL: `${siteUrl}${KHALTI_PREFIX}`,
      KHALTI_SECRET_KEY: KHALTI_LOCAL_KEY,
      PAYMENTS_ALLOW_LOOPBACK_HTTP: "1",
    });
  }
  Object.assign(process.env, configured, {
    CONVEX_CLOUD_URL: url,
    CONVEX_SITE_URL: siteUrl,
    SITE_URL: webOrigin,
    JWT_PRIVATE_KEY: secrets.JWT_PRIVATE_KEY,
    JWKS: secrets.JWKS,
  });

  let persistence: Persistence;
  try {
    persistence = Persistence.open(log, dataDir, {
      salvage: options.salvage,
      requestLimits: options.requestLimits,
      storageSecret: secrets.storageSecret,
    });
  } catch (error) {
    // The handlers will never exist: nothing may keep waiting for them.
    await ports.close();
    throw error;
  }
  const { durable, requests } = persistence;
  useCursorSecret(secrets.storageSecret);
  const signer = { secret: secrets.storageSecret, baseUrl: () => url };
  // Created after the engine (it needs it) but referenced by the engine's commit hook.
  const reactor: { subscriptions?: Subscriptions } = {};
  // A data directory that received a CLI push runs the pushed bundles, as a Convex deployment would.
  const admin = new AdminApi(dataDir, secrets.adminKey);
  const pushedDir = options.sourceCode ? null : admin.pushedCodeDir();
  const moduleDir = pushedDir ?? convexDir;
  const importer = pushedDir ? nativeImport : (options.importer ?? nativeImport);
  const engine: Engine = await Engine.create(moduleDir, importer, persistence.tables, {
    ...persistence.engineHooks(
      () => engine,
      (ts) => reactor.subscriptions?.onCommit(ts),
    ),
    storageUrl: (storageId) => createFileUrl(signer, storageId),
    uploadUrl: () => createUploadUrl(signer),
    systemModules: admin.systemModules(),
    onExecution: (execution) => admin.logs.record(execution),
  });
  await persistence.restoreInto(engine);
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
    tables: persistence.tables,
    urls: () => ({ convexCloudUrl: url, convexSiteUrl: siteUrl }),
    activate: (dir) => reload(nativeImport, dir),
  });

  // Tokens are verified by the providers of the app's auth.config.ts, as Convex does; one it cannot
  // read is refused at start, as Convex refuses to deploy it.
  await engine.authProviders();
  const verifyToken = new AuthConfigVerifier({
    providers: () => engine.authProviders(),
    siteUrl: () => siteUrl,
    ownJwks: secrets.JWKS,
  }).verify;
  const routes = createRoutes({
    url,
    admin,
    sync: {
      engine,
      subscriptions,
      verifyToken,
      adminKey: secrets.adminKey,
      durable,
      requests,
      limits: { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits },
    },
    storage: {
      engine,
      ...signer,
      maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
      durable,
      stageUpload: (body, maxBytes, type) => persistence.stageUpload(body, maxBytes, type),
    },
    site: {
      engine,
      verifyToken,
      durable,
      isDurable: persistence.isDurable,
      stageUpload: (body, maxBytes, type) => persistence.stageUpload(body, maxBytes, type),
      siteUrl,
      corsOrigins: allowedOrigins,
    },
    outbox,
    wallets,
    pingMs: options.pingMs ?? 20_000,
  });
  ports.serve(routes.handlers);
  const compactor = setInterval(
    () => persistence.maintain(engine),
    options.compactionCheckMs ?? 10_000,
  );
  compactor.unref();

  let closed: Promise<void> | undefined;
  return {
    url,
    siteUrl,
    adminKey: secrets.adminKey,
    dataDir,
    engine,
    subscriptions,
    recovery: persistence.report,
    requests,
    reload,
    get pushedCodeDir() {
      const pushed = admin.pushedCodeDir();
      return pushed !== null && path.resolve(pushed) === engine.convexDir ? pushed : null;
    },
    compact: () => persistence.compact(engine),
    close() {
      closed ??= (async () => {
        clearInterval(compactor);
        stopCrons();
        routes.close();
        await ports.close();
        await persistence.close(engine);
        engine.dispose();
      })();
      return closed;
    },
  };
}
