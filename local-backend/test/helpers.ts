import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { crc32 } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexClient } from "convex/browser";
import { importPKCS8, SignJWT } from "jose";
import { expect } from "vitest";
import WebSocket from "ws";
import { startBackend, type Backend, type BackendOptions } from "../server.ts";

export const fixtureConvexDir = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "fixture-convex",
);

const tempDirs: string[] = [];

export function tempDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "local-backend-test-"));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDataDirs() {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const backends: Backend[] = [];

/** A backend on free ports, with a fresh data directory and the fixture functions unless `options` say otherwise. */
export async function startTestBackend(options: BackendOptions = {}): Promise<Backend> {
  const backend = await startBackend({
    port: 0,
    sitePort: 0,
    dataDir: tempDataDir(),
    convexDir: fixtureConvexDir,
    ...options,
  });
  backends.push(backend);
  return backend;
}

/** Closes every backend startTestBackend started, then removes the temporary data directories. */
/**
 * Runs `body` while convex-test's syscalls, its query and mutation runs and its validator checks
 * throw: what `body` calls must run on the engine's own path (convex-test attached beside it).
 */
export async function withoutConvexTest<T>(backend: Backend, body: () => Promise<T>): Promise<T> {
  const { internals, global } = await backend.engine.convexTest();
  const hooks = internals.localBackendHooks;
  const saved = { ...hooks };
  const { syscall, asyncSyscall } = global;
  const refused = (what: string) => () => {
    throw new Error(`convex-test ${what}`);
  };
  hooks.timed = refused("ran a query or mutation");
  hooks.checkArgs = refused("checked arguments");
  hooks.checkResult = refused("checked a result");
  global.syscall = refused("answered a syscall");
  global.asyncSyscall = () => Promise.reject(new Error("convex-test answered a syscall"));
  try {
    return await body();
  } finally {
    Object.assign(hooks, saved);
    global.syscall = syscall;
    global.asyncSyscall = asyncSyscall;
  }
}

export async function closeTestBackends() {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  removeTempDataDirs();
}

export function newClient(url: string) {
  return new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
  });
}

/** Resolves with the first value `predicate` accepts from a subscription. */
export function nextValue<T>(
  client: ConvexClient,
  ref: Parameters<ConvexClient["onUpdate"]>[0],
  args: Record<string, unknown>,
  predicate: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error("timed out waiting for a subscription update"));
    }, timeoutMs);
    const unsubscribe = client.onUpdate(ref, args, (value) => {
      if (predicate(value as T)) {
        clearTimeout(timer);
        unsubscribe();
        resolve(value as T);
      }
    });
  });
}

export async function signToken(
  dataDir: string,
  issuer: string,
  subject: string,
  options: { expiresIn?: string | number; privateKey?: string } = {},
) {
  const keys = JSON.parse(readFileSync(path.join(dataDir, "auth-keys.json"), "utf8")) as {
    JWT_PRIVATE_KEY: string;
  };
  const key = await importPKCS8(options.privateKey ?? keys.JWT_PRIVATE_KEY, "RS256");
  return await new SignJWT({ sub: subject })
    .setProtectedHeader({ alg: "RS256" })
    .setIssuedAt()
    .setIssuer(issuer)
    .setAudience("convex")
    .setExpirationTime(options.expiresIn ?? "1h")
    .sign(key);
}

/** A log line in the format written before log records had named fields (durability/log-format.ts). */
export function legacyLogLine(
  record:
    | { ts: string; n: number; c: number; w: [string, unknown][]; r?: [string, number, unknown] }
    | { f: string; type: string },
): string {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, "0")} ${json}\n`;
}

/** The line Convex puts before a function's error message: `[Request ID: …] Server Error`. */
const ERROR_FRAME = /^\[Request ID: [0-9a-f]{16}\] Server Error\n/;

/** The error text of a call that must fail, without the `[Request ID: …] Server Error` line it must have. */
export async function errorOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const message = (error as Error).message;
    expect(message).toMatch(ERROR_FRAME);
    return message.replace(ERROR_FRAME, "");
  }
  throw new Error("the call succeeded");
}

/** Sends raw bytes as an HTTP request and resolves with the status line (or "closed"). */
export function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString()));
    socket.on("close", () => resolve(data.split("\r\n")[0] || "closed"));
    socket.on("error", () => resolve("closed"));
    socket.setTimeout(3000, () => socket.destroy());
  });
}
