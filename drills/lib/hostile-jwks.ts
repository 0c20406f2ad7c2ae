/**
 * An auth provider that answers badly: the backend runs the fixture deployment whose auth.config.ts names
 * a customJwt provider (local-backend/test/fixture-convex), with its JWKS URL on a server this drill runs.
 * A client sends a token naming that provider; the key set answers with `hugeMb` MB of JSON (once with
 * a Content-Length, once chunked), or sends its headers and then a byte a second forever. Each call must
 * be refused (401) within the backend's outbound time limit, and the backend's RSS must stay bounded.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { generateKeyPair, SignJWT } from "jose";
import { tempDir } from "./app-backend.ts";
import { freePorts, repoRoot, startCli, type HostileBackend } from "./hostile-backend.ts";

export type JwksSizes = { hugeMb: number; slow: boolean };
export type JwksCase = { name: string; status: number; ms: number; rssGrowthMb: number };
export type JwksReport = { cases: JwksCase[]; failures: string[] };

/** What a refused call may take: the backend's 10 s outbound limit and some slack. */
const ANSWER_WITHIN_MS = 15_000;
const RSS_GROWTH_MB = 100;
const fixtureConvexDir = path.join(repoRoot, "local-backend", "test", "fixture-convex");

type Mode = "huge-length" | "huge-chunked" | "slow";

function hostileProvider(hugeMb: number) {
  let mode: Mode = "huge-length";
  const total = hugeMb * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, " ");
  const open = new Set<ServerResponse>();
  const server: Server = createServer((_req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    if (mode === "slow") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write("{");
      const timer = setInterval(() => res.write(" "), 1000);
      res.on("close", () => clearInterval(timer));
      return;
    }
    res.writeHead(200, {
      "Content-Type": "application/json",
      ...(mode === "huge-length" ? { "Content-Length": String(total + 12) } : {}),
    });
    res.write('{"keys":[');
    let sent = 0;
    const pump = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      // Never valid JSON: a key set that parsed would be cached and spare the next cases their fetch.
      if (!res.destroyed) res.end("!!!");
    };
    pump();
  });
  return {
    server,
    setMode: (next: Mode) => (mode = next),
    close: () => {
      for (const res of open) res.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function runJwksDrill(sizes: JwksSizes): Promise<JwksReport> {
  const provider = hostileProvider(sizes.hugeMb);
  await new Promise<void>((resolve) => provider.server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(provider.server.address() as AddressInfo).port}`;
  const dataDir = tempDir("gharsewa-jwks-");
  let backend: HostileBackend | undefined;
  const report: JwksReport = { cases: [], failures: [] };
  try {
    backend = await startCli({
      dataDir,
      ports: await freePorts(),
      convexDir: fixtureConvexDir,
      seed: false,
      env: { TEST_CUSTOM_JWT_ISSUER: `${base}/custom`, TEST_CUSTOM_JWKS_URL: `${base}/jwks.json` },
    });
    const { privateKey } = await generateKeyPair("RS256");
    const token = await new SignJWT({ iss: `${base}/custom`, aud: "fixture-app", sub: "u1" })
      .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "JWT" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    const modes: Mode[] = ["huge-length", "huge-chunked", ...(sizes.slow ? ["slow" as const] : [])];
    for (const mode of modes) {
      provider.setMode(mode);
      const name = mode === "slow" ? "a byte a second" : `${sizes.hugeMb} MB (${mode.slice(5)})`;
      const before = backend.rss() ?? 0;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, backend!.rss() ?? 0)), 50);
      const started = Date.now();
      let status = 0;
      try {
        const res = await fetch(`${backend.url}/api/query`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ path: "identity:full", args: {} }),
          signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        status = 0; // no answer within the limit
      } finally {
        clearInterval(sampler);
      }
      const ms = Date.now() - started;
      const rssGrowthMb = Math.round((peak - before) / 1024 / 1024);
      report.cases.push({ name, status, ms, rssGrowthMb });
      if (status !== 401)
        report.failures.push(`${name}: answered ${status || "nothing"} in ${ms} ms`);
      if (rssGrowthMb > RSS_GROWTH_MB)
        report.failures.push(`${name}: RSS grew by ${rssGrowthMb} MB (at most ${RSS_GROWTH_MB})`);
      if (!backend.alive()) {
        report.failures.push(`${name}: the backend died`);
        break;
      }
    }
  } finally {
    await backend?.stop();
    await provider.close();
  }
  return report;
}

export const summarizeJwks = (r: JwksReport) =>
  r.cases
    .map((c) => `${c.name}: ${c.status || "no answer"} in ${c.ms} ms, RSS +${c.rssGrowthMb} MB`)
    .join("; ");
