/**
 * The hostile drill's target: `local-backend/cli.ts` in a child process, started as `npm start` starts
 * it (`--serve <web root> --run seed:init`, the app's convex/), on three loopback ports from 4600-4699
 * (`DRILL_PORTS=4750-4769` picks another range, for drills run beside each other).
 * The web root is a tiny fixture (the static server's code is what is attacked, not the bundle), so no
 * `vite build` is needed. Its output is drained into a bounded tail (an unread pipe would grow the
 * child's memory) and its RSS is read from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import WebSocket from "ws";
import { tempDir } from "./app-backend.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, "..", "..");
const cliScript = path.join(repoRoot, "local-backend", "cli.ts");
export const appConvexDir = path.join(repoRoot, "convex");

/** The demo accounts `seed:init` creates (README "What npm start runs"). */
export const DEMO_PASSWORD = "demo-password-1";

export type Ports = { cloud: number; site: number; web: number };

export type CliOptions = {
  dataDir: string;
  ports: Ports;
  convexDir?: string;
  /** Passes `--run seed:init` (with the demo data), as `npm start` does. */
  seed?: boolean;
  /** false: `--no-demo` (seed:init without the demo data). */
  demo?: boolean;
  salvage?: boolean;
  /** Extra environment variables of the child (functions read them through `process.env`). */
  env?: Record<string, string>;
};

export type HostileBackend = {
  url: string;
  siteUrl: string;
  webUrl: string;
  ports: Ports;
  dataDir: string;
  /** An admin made as `npm run create-admin` makes one with ADMIN_PASSWORD (when seed:init ran). */
  admin?: DrillAdmin;
  alive(): boolean;
  /** Resident memory in bytes (VmRSS), or null once the process is gone. */
  rss(): number | null;
  /** CPU time (ms, from /proc) of the main thread (its event loop) and of all threads; null once gone. */
  cpu(): { mainMs: number; allMs: number } | null;
  /** The last ~64 KB the process printed. */
  output(): string;
  stop(): Promise<void>;
};

export type DrillAdmin = { username: string; password: string };

const DRILL_ADMIN_PASSWORD = "a long drill admin password";

/**
 * Creates an admin with a password, as `npm run create-admin` does with ADMIN_PASSWORD (the internal
 * `admin:createAdmin`, called with the deployment's admin key). An admin of that name made earlier on
 * the same data (a restarted backend) is kept: it has the same password.
 */
export async function createAdmin(
  backend: { url: string; dataDir: string },
  username: string,
): Promise<DrillAdmin> {
  const key = readFileSync(path.join(backend.dataDir, "admin-key"), "utf8").trim();
  const res = await fetch(`${backend.url}/api/action`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Convex ${key}` },
    body: JSON.stringify({
      path: "admin:createAdmin",
      args: [{ username, password: DRILL_ADMIN_PASSWORD }],
      format: "json",
    }),
  });
  const body = (await res.json()) as { status?: string; errorData?: { code?: string } };
  if (body.status !== "success" && body.errorData?.code !== "USERNAME_TAKEN")
    throw new Error(`createAdmin: ${JSON.stringify(body)}`);
  return { username, password: DRILL_ADMIN_PASSWORD };
}

/** The process refused to start: its exit code and what it printed. */
export class StartRefused extends Error {
  constructor(
    readonly code: number | string,
    readonly printed: string,
  ) {
    super(`backend exited with ${code} before serving: ${printed.slice(-1500)}`);
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** Three free ports from the drill's range (4600-4699, or DRILL_PORTS), from a random place in it. */
export async function freePorts(): Promise<Ports> {
  const range = process.env.DRILL_PORTS ?? "4600-4699";
  const [low, high] = range.split("-").map(Number);
  const size = high - low + 1;
  const found: number[] = [];
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size && found.length < 3; i++) {
    const port = low + ((start + i) % size);
    if (await portIsFree(port)) found.push(port);
  }
  if (found.length < 3) throw new Error(`no three free ports in ${range}`);
  return { cloud: found[0], site: found[1], web: found[2] };
}

/** A minimal built app: the static server's code paths (index, assets, SPA fallback) are all there. */
export function fixtureWebRoot(): string {
  const root = tempDir("gharsewa-hostile-web-");
  mkdirSync(path.join(root, "assets"));
  writeFileSync(
    path.join(root, "index.html"),
    '<!doctype html><html><head><title>GharSewa</title><script src="/assets/app.js"></script></head><body></body></html>',
  );
  writeFileSync(path.join(root, "assets", "app.js"), "document.title = 'GharSewa';\n");
  return root;
}

const OUTPUT_TAIL = 64 * 1024;

/** Starts cli.ts; resolves once it serves all three ports, rejects with StartRefused if it exits first. */
export function startCli(options: CliOptions, webRoot = fixtureWebRoot()): Promise<HostileBackend> {
  const { ports, dataDir } = options;
  const args = [
    "--import",
    "tsx",
    cliScript,
    "--port",
    String(ports.cloud),
    "--site-port",
    String(ports.site),
    "--web-port",
    String(ports.web),
    "--data",
    dataDir,
    "--convex",
    options.convexDir ?? appConvexDir,
    "--serve",
    webRoot,
    ...(options.seed === false ? [] : ["--run", "seed:init"]),
    ...(options.demo === false ? ["--no-demo"] : []),
    ...(options.salvage ? ["--salvage"] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let tail = "";
  let admin: DrillAdmin | undefined;
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return new Promise((resolve, reject) => {
    let ready = false;
    const onData = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL);
      if (!ready && /Web app:/.test(tail)) {
        ready = true;
        if (options.seed === false) return resolve(backend);
        createAdmin(backend, "drill-admin").then((made) => {
          admin = made;
          resolve(backend);
        }, reject);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then((code) => {
      if (!ready) reject(new StartRefused(code, tail));
    });
    const backend: HostileBackend = {
      url: `http://127.0.0.1:${ports.cloud}`,
      siteUrl: `http://127.0.0.1:${ports.site}`,
      webUrl: `http://127.0.0.1:${ports.web}`,
      ports,
      dataDir,
      get admin() {
        return admin;
      },
      alive: () => child.exitCode === null && child.signalCode === null,
      rss() {
        try {
          const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
          return kb ? Number(kb[1]) * 1024 : null;
        } catch {
          return null;
        }
      },
      cpu() {
        try {
          let mainMs = 0;
          let allMs = 0;
          for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
            const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, "utf8");
            // utime and stime, in clock ticks (100 a second), after the parenthesised name
            const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
            const ms = (Number(fields[11]) + Number(fields[12])) * 10;
            allMs += ms;
            if (tid === String(child.pid)) mainMs = ms;
          }
          return { mainMs, allMs };
        } catch {
          return null;
        }
      },
      output: () => tail,
      async stop() {
        if (backend.alive()) child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(killer);
      },
    };
  });
}

/** Runs cli.ts until it either serves (then stops it) or exits: its exit code and output. */
export async function startOutcome(
  options: CliOptions,
): Promise<
  { started: true; printed: string } | { started: false; code: number | string; printed: string }
> {
  try {
    const backend = await startCli(options);
    const printed = backend.output();
    await backend.stop();
    return { started: true, printed };
  } catch (error) {
    if (error instanceof StartRefused)
      return { started: false, code: error.code, printed: error.printed };
    throw error;
  }
}

export function newClient(url: string): ConvexClient {
  return new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
  });
}

export type Tokens = { token: string; refreshToken: string };
const signInRef = makeFunctionReference<
  "action",
  Record<string, unknown>,
  { tokens?: Tokens | null }
>("auth:signIn");

/** Signs in through @convex-dev/auth's own action, as the web app does; returns the JWT and refresh token. */
export async function signIn(
  url: string,
  provider: "customer" | "professional" | "admin",
  account: string,
  password: string,
  /** An admin's authenticator or recovery code, once two-factor is set up. */
  code?: string,
): Promise<Tokens> {
  const params =
    provider === "admin"
      ? { username: account, password, flow: "signIn", ...(code ? { code } : {}) }
      : { email: account, password, flow: "signIn" };
  const result = await new ConvexHttpClient(url, { logger: false }).action(signInRef, {
    provider,
    params,
  });
  if (!result.tokens) throw new Error(`sign-in of ${account} gave no tokens`);
  return result.tokens;
}

/** A ConvexClient signed in with `token` (the drill finishes long before it expires). */
export function signedInClient(url: string, token: string): ConvexClient {
  const client = newClient(url);
  client.setAuth(async () => token);
  return client;
}

export const catalogSearch = makeFunctionReference<"query", { text: string }, unknown[]>(
  "catalog:search",
);

/** Rejects after `ms` unless `promise` settles first. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A client that keeps one sync socket to the backend, as a user's page would; `answers()` runs a
 * query no cache can answer (fresh arguments), so it needs the engine.
 */
export class Canary {
  private readonly client: ConvexClient;
  private n = 0;

  constructor(url: string) {
    this.client = newClient(url);
  }

  async answers(timeoutMs = 15_000): Promise<boolean> {
    try {
      const rows = await within(
        this.client.query(catalogSearch, { text: `canary ${this.n++}` }),
        timeoutMs,
        "canary query",
      );
      return Array.isArray(rows);
    } catch {
      return false;
    }
  }

  async close() {
    await this.client.close();
  }
}
