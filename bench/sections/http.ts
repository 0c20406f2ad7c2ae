/**
 * HTTP API throughput: GET /api/services/category/electrical and GET /api/current-locations on the
 * site port of a fresh local backend (catalogue seeded, 60 professionals on the map), 32 connections
 * with autocannon, against a bare node:http server (its own process) answering the same JSON bytes.
 * Rounds alternate between the two servers; figures are medians over rounds. Beside requests/s, each
 * server's CPU time per request (its process's, from /proc): on a shared machine the throughput ratio
 * moves with the other load, the CPU each request costs much less.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import autocannon from "autocannon";
import { CITIES, SPECIALTIES } from "../../convex/validators";
import { createProfessionals, startBenchBackend } from "../lib/backend";
import { cpuSeconds } from "../lib/cpu";
import { summarize } from "../lib/stats";

const PATHS = ["/api/services/category/electrical", "/api/current-locations"];

const BARE_SERVER = `
const { createServer } = require("node:http");
let routes = {};
process.on("message", (m) => { routes = m; });
const server = createServer((req, res) => {
  const body = routes[req.url];
  if (body === undefined) { res.writeHead(404); return res.end(); }
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
`;

type Round = { requestsPerSecond: number; p95Ms: number; non2xx: number; cpuUsPerRequest: number };
export type HttpFigure = { path: string; ours: Round; bare: Round };

/** autocannon against `url`, served by process `pid`. */
function cannon(
  url: string,
  pid: number,
  durationSec: number,
  connections: number,
): Promise<Round> {
  const latencies: number[] = [];
  const cpuBefore = cpuSeconds(pid);
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: durationSec }, (error, result) => {
      if (error) return reject(error);
      resolve({
        requestsPerSecond: result.requests.total / durationSec,
        p95Ms: summarize(latencies).p95,
        non2xx: result.non2xx,
        cpuUsPerRequest: (1e6 * (cpuSeconds(pid) - cpuBefore)) / Math.max(1, result.requests.total),
      });
    });
    instance.on(
      "response",
      (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
        latencies.push(responseTime),
    );
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function http({ rounds = 3, durationSec = 3, connections = 32 } = {}): Promise<
  HttpFigure[]
> {
  const backend = await startBenchBackend();
  await backend.run("seed:init", { demo: false });
  const { professionalIds } = await createProfessionals(backend, 60);
  await backend.insert(
    "liveLocations",
    professionalIds.map((professionalId, i) => ({
      professionalId,
      city: CITIES[i % CITIES.length].slug,
      specialty: SPECIALTIES[i % SPECIALTIES.length].slug,
      lat: CITIES[i % CITIES.length].lat + i * 0.001,
      lng: CITIES[i % CITIES.length].lng,
      updatedAt: Date.now(),
      name: `Professional ${i}`,
      listed: true,
    })),
  );
  await backend.insert(
    "mapMarkers",
    professionalIds.map((professionalId, i) => ({
      professionalId,
      city: CITIES[i % CITIES.length].slug,
      specialty: SPECIALTIES[i % SPECIALTIES.length].slug,
      name: `Professional ${i}`,
      listed: true,
    })),
  );

  // The bare server answers with exactly the bytes our endpoint returned.
  const routes: Record<string, string> = {};
  for (const p of PATHS) {
    const res = await fetch(backend.siteUrl + p);
    if (!res.ok) throw new Error(`${p} → ${res.status}`);
    routes[p] = await res.text();
  }
  const bare = spawn(process.execPath, ["-e", BARE_SERVER], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const [{ port }] = (await once(bare, "message")) as [{ port: number }];
  bare.send(routes);
  const bareUrl = `http://127.0.0.1:${port}`;

  const out: HttpFigure[] = [];
  for (const p of PATHS) {
    const ours: Round[] = [];
    const theirs: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      ours.push(await cannon(backend.siteUrl + p, backend.pid, durationSec, connections));
      theirs.push(await cannon(bareUrl + p, bare.pid!, durationSec, connections));
    }
    const med = (rs: Round[]): Round => ({
      requestsPerSecond: median(rs.map((x) => x.requestsPerSecond)),
      p95Ms: median(rs.map((x) => x.p95Ms)),
      cpuUsPerRequest: median(rs.map((x) => x.cpuUsPerRequest)),
      non2xx: rs.reduce((n, x) => n + x.non2xx, 0),
    });
    out.push({ path: p, ours: med(ours), bare: med(theirs) });
  }
  bare.kill();
  await backend.close();
  return out;
}
