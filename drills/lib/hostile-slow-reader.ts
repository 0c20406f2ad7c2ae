/**
 * Part 3 of the hostile drill: sockets that subscribe to `locations:current` (10,000 subscriptions in
 * all, as many per socket as the server accepts) and then never read, while a signed-in professional
 * moves once a second, so every move is a Transition the server cannot hand over. The backend's RSS is
 * sampled from /proc throughout. The server must close the sockets that stopped reading, and its
 * memory must stay within the bound and not keep what it held for them.
 */
import type { Socket } from "node:net";
import { makeFunctionReference } from "convex/server";
import type WebSocket from "ws";
import { signedInClient, within, type HostileBackend } from "./hostile-backend.ts";
import { addFrame, connectFrame, onServerMessages, openSync } from "./hostile-sync.ts";

const update = makeFunctionReference<
  "mutation",
  { longitude: number; latitude: number; accuracy?: number },
  null
>("locations:update");

export type SlowReaderReport = {
  subscriptions: number;
  sockets: number;
  /** The most subscriptions one socket was allowed, if the server set a limit below the target. */
  perSocket?: number;
  moves: number;
  refusedMoves: number;
  baselineMb: number;
  peakMb: number;
  afterMb: number;
  /** Sockets the server closed, and when (s after the moves began). */
  closedByServer: number;
  closedAfterS: number[];
  failures: string[];
};

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The raw TCP socket under a ws client (ws keeps it as `_socket`). */
const tcpOf = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket;

/**
 * Subscribes `want` times on one socket, `frame` at a time, reading each frame's Transition. Resolves
 * with how many the socket holds, or null when the server closed it (a limit was passed).
 */
async function subscribe(
  url: string,
  want: number,
  frame: number,
): Promise<{ ws: WebSocket; held: number } | { refusedAfter: number; error: string }> {
  const ws = await openSync(url);
  let acked = 0;
  let error = "";
  onServerMessages(ws, (m) => {
    if (m.type === "Transition" && (m.endVersion?.querySet ?? 0) > acked)
      acked = m.endVersion!.querySet;
    if (m.type === "FatalError") error = m.error ?? "";
  });
  ws.send(connectFrame());
  let held = 0;
  for (let version = 0; held < want; version++) {
    const n = Math.min(frame, want - held);
    const queries = Array.from({ length: n }, () => ({ udfPath: "locations:current", args: {} }));
    ws.send(addFrame(version, held, queries));
    const started = Date.now();
    while (acked <= version && ws.readyState === ws.OPEN && Date.now() - started < 60_000)
      await sleep(20);
    if (acked <= version) {
      ws.terminate();
      return { refusedAfter: held, error: error || "no answer" };
    }
    held += n;
  }
  return { ws, held };
}

export async function runSlowReader(
  backend: HostileBackend,
  options: { token: string; subscriptions: number; seconds: number; closeWaitS?: number },
): Promise<SlowReaderReport> {
  const { closeWaitS = 30 } = options;
  const report: SlowReaderReport = {
    subscriptions: 0,
    sockets: 0,
    moves: 0,
    refusedMoves: 0,
    baselineMb: 0,
    peakMb: 0,
    afterMb: 0,
    closedByServer: 0,
    closedAfterS: [],
    failures: [],
  };
  const rss = () => backend.rss() ?? 0;
  const baseline: number[] = [];
  for (let i = 0; i < 8; i++, await sleep(250)) baseline.push(rss());
  report.baselineMb = mb(median(baseline));

  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 250);
  const slow: WebSocket[] = [];
  let moving = false;
  let movesStarted = 0;
  const professional = signedInClient(backend.url, options.token);
  try {
    // Learn the server's limits from its refusals: a frame too large, then subscriptions per socket.
    let frame = 1000;
    let perSocket = options.subscriptions;
    for (let attempt = 0; report.subscriptions < options.subscriptions && attempt < 60; attempt++) {
      const want = Math.min(perSocket, options.subscriptions - report.subscriptions);
      const result = await subscribe(backend.url, want, frame);
      if ("ws" in result) {
        slow.push(result.ws);
        report.subscriptions += result.held;
        continue;
      }
      if (result.refusedAfter === 0 && frame > 50) frame = Math.floor(frame / 2);
      else if (result.refusedAfter > 0) perSocket = report.perSocket = result.refusedAfter;
      else {
        report.failures.push(`the server refused every subscription: ${result.error}`);
        break;
      }
    }
    report.sockets = slow.length;
    const closedAt = new Map<WebSocket, number>();
    for (const ws of slow) {
      ws.on("close", () => closedAt.set(ws, Date.now()));
      ws.on("error", () => undefined);
      tcpOf(ws).pause();
    }

    // Moves ~1 km each time, so every marker's value changes (markers are rounded to ~500 m).
    moving = true;
    movesStarted = Date.now();
    const mover = (async () => {
      for (let i = 0; moving; i++) {
        const next = sleep(1100);
        try {
          await within(
            professional.mutation(update, {
              latitude: 28.05 + (i % 2) * 0.01,
              longitude: 81.62,
              accuracy: 10,
            }),
            30_000,
            "locations:update",
          );
          report.moves += 1;
        } catch {
          report.refusedMoves += 1;
        }
        await next;
      }
    })();
    // A write to a socket the server has dropped fails, which is how a client that does not read
    // learns of it: ping once a second.
    const deadline = movesStarted + options.seconds * 1000;
    const giveUp = deadline + closeWaitS * 1000;
    while (Date.now() < deadline || (closedAt.size < slow.length && Date.now() < giveUp)) {
      for (const ws of slow) if (ws.readyState === ws.OPEN) ws.ping();
      await sleep(1000);
    }
    moving = false;
    await mover;
    report.closedByServer = closedAt.size;
    report.closedAfterS = [...closedAt.values()].map((t) => Math.round((t - movesStarted) / 1000));
    const after: number[] = [];
    for (let i = 0; i < 12; i++, await sleep(250)) after.push(rss());
    report.afterMb = mb(median(after));
  } finally {
    moving = false;
    clearInterval(sampler);
    for (const ws of slow) ws.terminate();
    await professional.close();
  }
  report.peakMb = mb(peak);
  return report;
}

export const summarizeSlowReader = (r: SlowReaderReport) =>
  `RSS ${r.baselineMb} → peak ${r.peakMb} MB (growth ${r.peakMb - r.baselineMb} MB), ${r.afterMb} MB after; ` +
  `${r.subscriptions} subscriptions on ${r.sockets} unread socket${r.sockets === 1 ? "" : "s"}` +
  `${r.perSocket ? ` (server allows ${r.perSocket} per socket)` : ""}, ${r.moves} moves (${r.refusedMoves} refused); ` +
  `closed by the server: ${r.closedByServer} of ${r.sockets}${r.closedAfterS.length ? ` at ${r.closedAfterS.join(", ")} s` : ""}`;
