/**
 * Network blips: 4 clients write continuously through a TCP proxy to a backend that keeps running; the
 * proxy cuts every connection at random moments (as a phone changing networks does). The clients
 * reconnect and resend what they have no transition for; every write must be applied exactly once.
 */
import { rmSync } from "node:fs";
import { ConvexHttpClient } from "convex/browser";
import { startTcpProxy } from "../../local-backend/test/tcp-proxy.ts";
import { tempDir } from "./app-backend.ts";
import { dump, newClient, startCrashBackend, startWriters, timesWritten } from "./crash.ts";
import { rng } from "./fuzz.ts";

export type BlipReport = {
  blips: number;
  acknowledged: number;
  found: number;
  duplicated: number;
  failures: string[];
};

export async function runBlipDrill(options: {
  blips: number;
  maxMs?: number;
  seed?: number;
  writers?: number;
}): Promise<BlipReport> {
  const { blips, maxMs = 300, seed = 9, writers = 4 } = options;
  const r = rng(seed);
  const dataDir = tempDir("gharsewa-blip-");
  const backend = await startCrashBackend(dataDir);
  const target = Number(new URL(backend.url).port);
  const proxy = await startTcpProxy(target);
  const proxyUrl = proxy.url;
  const report: BlipReport = { blips: 0, acknowledged: 0, found: 0, duplicated: 0, failures: [] };
  const clients = Array.from({ length: writers }, () => newClient(proxyUrl));
  const writing = startWriters(clients, "b");
  try {
    for (let b = 0; b < blips; b++) {
      await writing.nextAck();
      await new Promise((resolve) => setTimeout(resolve, r.int(maxMs)));
      proxy.cut();
      report.blips++;
    }
    await writing.finish(() => "writers did not finish after the last blip");
    const { acked } = writing;
    const state = await new ConvexHttpClient(backend.url, { logger: false }).query(dump, {});
    const { times, duplicates } = timesWritten(state.firsts);
    report.acknowledged = acked.size;
    report.found = [...acked].filter((k) => times.has(k)).length;
    report.duplicated = duplicates.length;
    if (duplicates.length > 0)
      report.failures.push(
        `${duplicates.length} writes applied more than once after a dropped connection, e.g. ${duplicates.slice(0, 5).join(", ")}`,
      );
    if (report.found !== report.acknowledged)
      report.failures.push(`${report.acknowledged - report.found} acknowledged writes missing`);
  } catch (error) {
    report.failures.push((error as Error).message);
  } finally {
    writing.stop();
    for (const c of clients) void c.close();
    await proxy.close();
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

export function summarizeBlip(report: BlipReport): string {
  return `${report.blips} dropped connections: ${report.acknowledged} writes acknowledged / ${report.found} found; ${report.duplicated} applied twice`;
}
