/** Starts bench/lib/backend-child.ts (a fresh local backend with a temp data dir and free ports) and talks to it. */
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importPKCS8, SignJWT } from "jose";
import { CITIES, SPECIALTIES } from "../../convex/validators";
import type { stageJoins, StageSummary } from "../../local-backend/stage-trace";

export type BackendStages = { summary: StageSummary; joins: ReturnType<typeof stageJoins> };

const here = path.dirname(fileURLToPath(import.meta.url));
export const APP_CONVEX_DIR = path.resolve(here, "../../convex");
export const FIXTURE_CONVEX_DIR = path.resolve(here, "../../local-backend/test/fixture-convex");

export interface BenchBackend {
  url: string;
  siteUrl: string;
  dataDir: string;
  pid: number;
  run(fn: string, args?: unknown): Promise<unknown>;
  insert(table: string, docs: Record<string, unknown>[]): Promise<string[]>;
  /** The first document of `table` whose `index` has `field` = `value`, or null. */
  find(
    table: string,
    index: string,
    field: string,
    value: unknown,
  ): Promise<Record<string, unknown> | null>;
  storeBlob(bytes: Uint8Array, type: string): Promise<string>;
  /** With `traceStages`: forgets the stage timestamps so far, or sums them up (local-backend/stage-trace.ts). */
  stages(reset: boolean): Promise<BackendStages | undefined>;
  /** Serves a built web app from the backend's process; returns its origin. */
  serve(dir: string): Promise<string>;
  /** A session JWT as @convex-dev/auth signs it (tokens.js): sub `${userId}|${sessionId}`, iss = site URL, aud "convex". */
  token(userId: string, sessionId: string): Promise<string>;
  close(): Promise<void>;
}

export async function startBenchBackend(
  convexDir = APP_CONVEX_DIR,
  { traceStages = false } = {},
): Promise<BenchBackend> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gharsewa-bench-"));
  const child = fork(path.join(here, "backend-child.ts"), [dataDir, convexDir], {
    // BENCH_BACKEND_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the backend (NODE_OPTIONS refuses --cpu-prof).
    execArgv: [
      "--import",
      "tsx",
      ...(process.env.BENCH_BACKEND_NODE_ARGS ?? "").split(" ").filter(Boolean),
    ],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, LOCAL_BACKEND_TRACE_STAGES: traceStages ? "1" : "" },
  });
  // The backend's own console (function log lines) is kept for errors only.
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let nextId = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let exited = false;
  const ready = new Promise<{ url: string; siteUrl: string }>((resolve, reject) => {
    child.on(
      "message",
      (m: {
        ready?: boolean;
        url: string;
        siteUrl: string;
        id: number;
        ok: boolean;
        value: unknown;
        error: string;
      }) => {
        if (m.ready) return resolve(m);
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.ok) w?.resolve(m.value);
        else w?.reject(new Error(m.error));
      },
    );
    child.once("exit", (code) => {
      exited = true;
      const error = new Error(`bench backend exited with ${code}\n${output}`);
      reject(error);
      for (const w of waiting.values()) w.reject(error);
    });
  });
  const { url, siteUrl } = await ready;
  const call = (req: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ id, ...req });
    });
  const keys = JSON.parse(readFileSync(path.join(dataDir, "auth-keys.json"), "utf8")) as {
    JWT_PRIVATE_KEY: string;
  };
  const privateKey = await importPKCS8(keys.JWT_PRIVATE_KEY, "RS256");
  return {
    url,
    siteUrl,
    dataDir,
    pid: child.pid!,
    run: (fn, args = {}) => call({ op: "run", fn, args }),
    insert: (table, docs) => call({ op: "insert", table, docs }) as Promise<string[]>,
    find: (table, index, field, value) =>
      call({ op: "find", table, index, field, value }) as Promise<Record<string, unknown> | null>,
    storeBlob: (bytes, type) =>
      call({ op: "storeBlob", bytes: [...bytes], type }) as Promise<string>,
    serve: (dir) => call({ op: "serve", dir }) as Promise<string>,
    stages: (reset) => call({ op: "stages", reset }) as Promise<BackendStages | undefined>,
    token: (userId, sessionId) =>
      new SignJWT({ sub: `${userId}|${sessionId}` })
        .setProtectedHeader({ alg: "RS256" })
        .setIssuedAt()
        .setIssuer(siteUrl)
        .setAudience("convex")
        .setExpirationTime("2h")
        .sign(privateKey),
    async close() {
      if (!exited) {
        const gone = new Promise((r) => child.once("exit", r));
        await call({ op: "close" }).catch(() => {});
        await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
        if (!exited) child.kill("SIGKILL");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Users with a session each (the rows a password sign-in would leave), returned with their JWTs. */
export async function createAccounts(
  backend: BenchBackend,
  users: Record<string, unknown>[],
): Promise<{ userId: string; sessionId: string; token: string }[]> {
  const out: { userId: string; sessionId: string; token: string }[] = [];
  for (let i = 0; i < users.length; i += 500) {
    const userIds = await backend.insert("users", users.slice(i, i + 500));
    const sessionIds = await backend.insert(
      "authSessions",
      userIds.map((userId) => ({ userId, expirationTime: Date.now() + 2 * 3_600_000 })),
    );
    for (let j = 0; j < userIds.length; j++) {
      out.push({
        userId: userIds[j],
        sessionId: sessionIds[j],
        token: await backend.token(userIds[j], sessionIds[j]),
      });
    }
  }
  return out;
}

/**
 * `count` verified, available professionals with accounts, spread over every specialty and city in turn
 * (professional `i` has SPECIALTIES[i % 14] and CITIES[i % 6]).
 */
export async function createProfessionals(backend: BenchBackend, count: number) {
  const png = await backend.storeBlob(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    "image/png",
  );
  const accounts = await createAccounts(
    backend,
    Array.from({ length: count }, (_, i) => ({
      name: `Professional ${i}`,
      role: "professional",
      email: `p${i}@bench.np`,
    })),
  );
  const professionalIds = await backend.insert(
    "professionals",
    accounts.map((p, i) => ({
      userId: p.userId,
      specialty: SPECIALTIES[i % SPECIALTIES.length].slug,
      city: CITIES[i % CITIES.length].slug,
      state: "Bench",
      locations: [],
      documents: { citizenshipFront: png, citizenshipBack: png, trainingCertificate: png },
      verification: { status: "verified" },
      rating: { sum: 0, count: 0 },
      available: true,
    })),
  );
  return { accounts, professionalIds };
}
