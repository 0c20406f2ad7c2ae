/**
 * Chat: message sent → shown on the other party's screen, with `conversations` bookings each sending
 * one message a second (their customer and professional in turn, so each stays under the chat rate
 * limit) for `seconds`. Ours: the real app (chat:send, the reader watching chat:messages' first page
 * as the conversation screen does), every party on its own client. Baseline, same run: the Socket.IO
 * peer (bench/peer) relaying each message to the conversation's room after an fdatasync'ed append.
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexReactClient } from "convex/react";
import { anyApi } from "convex/server";
import { io, type Socket } from "socket.io-client";
import WebSocket from "ws";
import { createAccounts, createProfessionals, startBenchBackend } from "../lib/backend";
import { summarize, type Summary } from "../lib/stats";

/** One side of a conversation: `send` resolves when the server took it. */
type Party = { send(text: string): Promise<void> };
type Heard = (text: string, side: 0 | 1) => void;
type ChatTarget = {
  /** Conversation `i`'s two parties; `heard` is called when a message reaches either side's screen. */
  pair(i: number, heard: Heard): Promise<[Party, Party]>;
  close(): Promise<void>;
};

const WARM_UP_SECONDS = 2;

async function drive(target: ChatTarget, conversations: number, seconds: number) {
  const sentAt = new Map<string, number>();
  const samples: number[] = [];
  const heard: Heard = (text, side) => {
    const [, round] = text.split(":").map(Number);
    const at = sentAt.get(text);
    // the sender's own screen shows it too: only the other side's counts
    if (at === undefined || round % 2 === side) return;
    sentAt.delete(text);
    if (round >= WARM_UP_SECONDS) samples.push(performance.now() - at);
  };
  const pairs = [];
  for (let i = 0; i < conversations; i++) pairs.push(await target.pair(i, heard));
  const rounds = seconds + WARM_UP_SECONDS;
  await Promise.all(
    pairs.map(async (parties, i) => {
      // staggered across the second, as real conversations would be
      await new Promise((r) => setTimeout(r, (1000 * i) / conversations));
      const start = performance.now();
      for (let round = 0; round < rounds; round++) {
        const text = `${i}:${round}`;
        sentAt.set(text, performance.now());
        await parties[round % 2].send(text);
        const next = start + (round + 1) * 1000 - performance.now();
        if (next > 0) await new Promise((r) => setTimeout(r, next));
      }
    }),
  );
  // what has not arrived a few seconds after the last send never will
  await new Promise((r) => setTimeout(r, 3000));
  return { latency: summarize(samples), lost: sentAt.size };
}

async function ours(conversations: number): Promise<ChatTarget> {
  const backend = await startBenchBackend();
  await backend.run("seed:init", { demo: false });
  const customers = await createAccounts(
    backend,
    Array.from({ length: conversations }, (_, i) => ({
      name: `Customer ${i}`,
      role: "customer",
      email: `c${i}@bench.np`,
    })),
  );
  const { accounts: pros, professionalIds } = await createProfessionals(backend, conversations);
  const now = Date.now();
  const bookingIds = await backend.insert(
    "bookings",
    customers.map((c, i) => ({
      customerId: c.userId,
      professionalId: professionalIds[i],
      professionalUserId: pros[i].userId,
      services: [],
      address: "Ward 1",
      city: "kathmandu",
      scheduledFor: now + 3_600_000,
      price: 500,
      status: "accepted",
      acceptedAt: now,
      updatedAt: now,
    })),
  );
  const clients: ConvexReactClient[] = [];
  const party = async (token: string, bookingId: string, heard: (text: string) => void) => {
    const c = new ConvexReactClient(backend.url, {
      webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
      unsavedChangesWarning: false,
    });
    c.setAuth(async () => token);
    clients.push(c);
    const watch = c.watchQuery(anyApi.chat.messages, {
      bookingId,
      paginationOpts: { numItems: 30, cursor: null },
    });
    await new Promise<void>((ready) =>
      watch.onUpdate(() => {
        const page = (watch.localQueryResult() as { page: { text?: string }[] } | undefined)?.page;
        // under load several messages can arrive in one update
        for (const message of page ?? []) if (message.text) heard(message.text);
        ready();
      }),
    );
    return {
      send: async (text: string) => void (await c.mutation(anyApi.chat.send, { bookingId, text })),
    };
  };
  return {
    pair: (i, heard) =>
      Promise.all([
        party(customers[i].token, bookingIds[i], (text) => heard(text, 0)),
        party(pros[i].token, bookingIds[i], (text) => heard(text, 1)),
      ]),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await backend.close();
    },
  };
}

async function peer(): Promise<ChatTarget> {
  const dir = mkdtempSync(path.join(tmpdir(), "gharsewa-peer-chat-"));
  const child = fork(
    new URL("../peer/socketio-server.ts", import.meta.url).pathname,
    ["0", path.join(dir, "log")],
    { execArgv: ["--import", "tsx"], stdio: "inherit" },
  );
  const [{ port }] = (await once(child, "message")) as [{ port: number }];
  const sockets: Socket[] = [];
  const party = async (room: string, heard: (text: string) => void): Promise<Party> => {
    const socket = io(`http://127.0.0.1:${port}`, { transports: ["websocket"], query: { room } });
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.on("chat", (m: { text: string }) => heard(m.text));
    return {
      send: (text) => new Promise<void>((resolve) => socket.emit("chat", { room, text }, resolve)),
    };
  };
  return {
    pair: (i, heard) =>
      Promise.all([
        party(`c${i}`, (text) => heard(text, 0)),
        party(`c${i}`, (text) => heard(text, 1)),
      ]),
    async close() {
      sockets.forEach((s) => s.close());
      child.kill();
      await once(child, "exit");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type ChatResult = {
  conversations: number;
  seconds: number;
  ours: { latency: Summary; lost: number };
  peer: { latency: Summary; lost: number };
};

export async function chat({ conversations = 100, seconds = 20 } = {}): Promise<ChatResult> {
  const run = async (start: () => Promise<ChatTarget>) => {
    const target = await start();
    try {
      return await drive(target, conversations, seconds);
    } finally {
      await target.close();
    }
  };
  const peerResult = await run(peer);
  const oursResult = await run(() => ours(conversations));
  return { conversations, seconds, ours: oursResult, peer: peerResult };
}
