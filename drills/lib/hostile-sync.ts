/**
 * Raw sync-protocol sockets for the hostile drill: what a hand-written client (not convex/browser)
 * can send to /api/<version>/sync, and a reader that reassembles TransitionChunks.
 */
import { randomUUID } from "node:crypto";
import { version } from "convex";
import WebSocket from "ws";

export const syncUrl = (url: string) => `${url.replace(/^http/, "ws")}/api/${version}/sync`;

export const connectFrame = () =>
  JSON.stringify({
    type: "Connect",
    sessionId: randomUUID(),
    connectionCount: 0,
    lastCloseReason: null,
    clientTs: Date.now(),
  });

export type Query = { udfPath: string; args: Record<string, unknown> };

/** One ModifyQuerySet adding `queries` as ids firstId, firstId + 1, … */
export function addFrame(baseVersion: number, firstId: number, queries: Query[]): string {
  return JSON.stringify({
    type: "ModifyQuerySet",
    baseVersion,
    newVersion: baseVersion + 1,
    modifications: queries.map((q, i) => ({
      type: "Add",
      queryId: firstId + i,
      udfPath: q.udfPath,
      args: [q.args],
    })),
  });
}

/** Opens a sync socket (rejects if the upgrade fails or takes over `ms`). */
export function openSync(url: string, ms = 10_000): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(syncUrl(url), { maxPayload: 256 * 1024 * 1024 });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error("sync socket did not open"));
    }, ms);
    ws.once("open", () => {
      clearTimeout(timer);
      resolve(ws);
    });
    ws.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

export type ServerMessage = {
  type: string;
  endVersion?: { querySet: number };
  error?: string;
};

/** Calls `fn` with every server message, TransitionChunks joined into their Transition. */
export function onServerMessages(ws: WebSocket, fn: (message: ServerMessage) => void) {
  let chunks: string[] = [];
  ws.on("message", (data) => {
    let message: ServerMessage & { chunk?: string; partNumber?: number; totalParts?: number };
    try {
      message = JSON.parse(data.toString()) as typeof message;
    } catch {
      return;
    }
    if (message.type !== "TransitionChunk") return fn(message);
    if (message.partNumber === 0) chunks = [];
    chunks.push(message.chunk ?? "");
    if (message.partNumber === (message.totalParts ?? 1) - 1) {
      const joined = chunks.join("");
      chunks = [];
      try {
        fn(JSON.parse(joined) as ServerMessage);
      } catch {
        // a malformed transition counts as no answer
      }
    }
  });
}

/** Resolves once the socket has closed (immediately if it already has). */
export function closed(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once("close", () => resolve()));
}
