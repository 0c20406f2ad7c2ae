/**
 * The peer baseline: the architecture the spec was first built on. Express + Socket.IO, one room per
 * city, the latest position per professional in memory, each report appended to a log and fdatasync'ed
 * before it is broadcast to the city's room; chat messages the same way to a conversation's room (the
 * `room` of the handshake). Run as its own process: `tsx bench/peer/socketio-server.ts <port> <logFile>`.
 */
import express from "express";
import { createServer } from "node:http";
import { openSync, writeSync, fdatasyncSync } from "node:fs";
import { Server } from "socket.io";

export type Position = { id: string; city: string; lat: number; lng: number };

const [port = "0", logFile = "/tmp/peer-positions.log"] = process.argv.slice(2);
const log = openSync(logFile, "a");
const latest = new Map<string, Position>();

const app = express();
app.use(express.json());
app.get("/api/current-locations", (_req, res) => {
  res.json({
    Technicians: [...latest.values()].map((p) => ({
      _id: p.id,
      currentLocation: { coordinates: [p.lng, p.lat] },
    })),
  });
});

const http = createServer(app);
const io = new Server(http, { serveClient: false });
io.on("connection", (socket) => {
  const city = String(socket.handshake.query.city ?? "");
  if (city) void socket.join(city);
  const room = String(socket.handshake.query.room ?? "");
  if (room) void socket.join(room);
  socket.on("chat", (message: { room: string; text: string }, ack?: () => void) => {
    writeSync(log, JSON.stringify(message) + "\n");
    fdatasyncSync(log);
    io.to(message.room).emit("chat", message);
    ack?.();
  });
  socket.on("location", (p: Position, ack?: () => void) => {
    writeSync(log, JSON.stringify(p) + "\n");
    fdatasyncSync(log);
    latest.set(p.id, p);
    io.to(p.city).emit("location", p);
    ack?.();
  });
});

http.listen(Number(port), "127.0.0.1", () => {
  const address = http.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : Number(port) });
});
