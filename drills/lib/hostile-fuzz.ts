/**
 * Part 1 of the hostile drill: sends the inputs of hostile-inputs.ts to the running backend in
 * batches; after each batch the process must be alive and a canary ConvexClient's query answered. A
 * batch after which it is not counts as a crash: the backend is restarted on the same ports and data,
 * and the batch is replayed one input at a time to name the input that did it.
 */
import { connect } from "node:net";
import WebSocket from "ws";
import { Canary, type HostileBackend } from "./hostile-backend.ts";
import type { HostileInput } from "./hostile-inputs.ts";
import { connectFrame, syncUrl } from "./hostile-sync.ts";

export type FuzzTarget = {
  backend(): HostileBackend;
  /** Stops what is left of the backend and starts it again on the same ports and data. */
  restart(): Promise<void>;
};

export type HostileFuzzReport = {
  inputs: number;
  byCategory: Record<string, number>;
  /** Batches after which the process was gone or the canary got no answer. */
  crashes: number;
  /** What the crashes were: the input named by replaying its batch, and the backend's last words. */
  failures: string[];
  seconds: number;
};

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a sync socket, sends the frames, and waits for the server to close it or `lingerMs`. */
function sendFrames(
  url: string,
  input: Extract<HostileInput, { kind: "frames" }>,
  lingerMs: number,
) {
  return new Promise<void>((resolve) => {
    const ws = new WebSocket(syncUrl(url));
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      ws.terminate();
      resolve();
    };
    ws.on("error", done);
    ws.on("close", done);
    ws.on("open", () => {
      const frames = input.frames();
      if (input.connect) ws.send(connectFrame());
      // Counted from when the last frame is handed to the OS (huge frames take a while).
      const linger = () => (timer = setTimeout(done, lingerMs));
      if (frames.length === 0) return linger();
      frames.forEach((frame, i) =>
        ws.send(frame.data, { binary: frame.binary ?? false }, () => {
          if (i === frames.length - 1) linger();
        }),
      );
    });
  });
}

/**
 * Writes raw bytes to a port (and `afterAnswer` once the server has answered them); waits for the
 * server to close, to go quiet after answering, or `ms`.
 */
function sendRaw(port: number, bytes: Buffer, ms: number, afterAnswer?: Buffer) {
  return new Promise<void>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let quiet: NodeJS.Timeout | undefined;
    let answered = false;
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(limit);
      socket.destroy();
      resolve();
    };
    const limit = setTimeout(done, ms);
    socket.on("error", done);
    socket.on("close", done);
    socket.on("connect", () => socket.write(bytes));
    socket.on("data", () => {
      if (afterAnswer && !answered) {
        answered = true;
        socket.write(afterAnswer);
      }
      clearTimeout(quiet);
      quiet = setTimeout(done, 100);
    });
  });
}

const UPGRADE = (path: string) =>
  Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    "latin1",
  );

async function send(backend: HostileBackend, input: HostileInput, syncPath: string) {
  switch (input.kind) {
    case "frames":
      return await sendFrames(backend.url, input, 150);
    case "ws-raw":
      return await sendRaw(backend.ports.cloud, UPGRADE(syncPath), 2000, input.bytes());
    case "http":
      return await sendRaw(backend.ports[input.port], input.bytes(), 2000);
  }
}

async function runConcurrently<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** The process is alive and the canary's query is answered. */
async function healthy(backend: HostileBackend, canary: Canary): Promise<boolean> {
  if (!backend.alive()) return false;
  const answered = await canary.answers(20_000);
  return answered && backend.alive();
}

const lastWords = (backend: HostileBackend) =>
  backend
    .output()
    .trim()
    .split("\n")
    .slice(-4)
    .map((l) => l.trim().slice(0, 200))
    .join(" / ");

export async function runHostileFuzz(
  target: FuzzTarget,
  inputs: HostileInput[],
  options: { batchSize?: number; concurrency?: number; maxReplays?: number } = {},
): Promise<HostileFuzzReport> {
  const { batchSize = 100, concurrency = 8, maxReplays = 3 } = options;
  const started = Date.now();
  const syncPath = new URL(syncUrl(target.backend().url)).pathname;
  const report: HostileFuzzReport = {
    inputs: 0,
    byCategory: {},
    crashes: 0,
    failures: [],
    seconds: 0,
  };
  let canary = new Canary(target.backend().url);
  let replays = 0;
  const recover = async () => {
    await canary.close();
    await target.restart();
    canary = new Canary(target.backend().url);
  };
  try {
    for (let at = 0; at < inputs.length; at += batchSize) {
      const batch = inputs.slice(at, at + batchSize);
      await runConcurrently(batch, concurrency, async (input) => {
        report.inputs += 1;
        report.byCategory[input.category] = (report.byCategory[input.category] ?? 0) + 1;
        await send(target.backend(), input, syncPath);
      });
      if (await healthy(target.backend(), canary)) continue;
      report.crashes += 1;
      const how = target.backend().alive() ? "stopped answering" : "died";
      const words = lastWords(target.backend());
      await recover();
      let culprit = "not found when replayed one by one";
      if (replays++ < maxReplays) {
        for (const input of batch) {
          await send(target.backend(), input, syncPath);
          await settle(20);
          if (await healthy(target.backend(), canary)) continue;
          culprit = `${input.category}: ${input.label}`;
          await recover();
          break;
        }
      }
      report.failures.push(
        `batch ${at / batchSize + 1}: the backend ${how}; input: ${culprit}; it printed: ${words}`,
      );
    }
  } finally {
    await canary.close();
  }
  report.seconds = (Date.now() - started) / 1000;
  return report;
}

export function summarizeFuzz(report: HostileFuzzReport): string {
  return `crashes ${report.crashes} of ${report.inputs} inputs (${Object.keys(report.byCategory).length} kinds, ${report.seconds.toFixed(0)} s)`;
}
