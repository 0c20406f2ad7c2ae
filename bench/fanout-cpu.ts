/**
 * `npx tsx bench/fanout-cpu.ts [--watchers 50] [--commits 400]` — the local backend's CPU per delivered
 * query update, measured so that the machine's load does not change what is measured: signed-in watchers
 * (raw sync sockets, each its own identity) subscribe to one query that does not read the identity
 * (the fixture's `counters:get`), and a driver commits `counters:increment` one at a time, each after every
 * watcher got the previous commit's Transition. Under the fan-out section's load, a backend that falls
 * behind folds several commits into one pass and looks cheaper per delivery; here every commit is one
 * pass. Backend CPU from /proc over the commits, after 100 commits of warm-up.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { FIXTURE_CONVEX_DIR, startBenchBackend } from "./lib/backend";
import { cpuSeconds } from "./lib/cpu";

const { values } = parseArgs({
  options: {
    watchers: { type: "string", default: "50" },
    commits: { type: "string", default: "400" },
  },
});
const watcherCount = Number(values.watchers);
const commits = Number(values.commits);

const backend = await startBenchBackend(FIXTURE_CONVEX_DIR);
const syncUrl = `${backend.url.replace(/^http/, "ws")}/api/1.17.0/sync`;

/** A sync socket counting the Transitions and MutationResponses it has received. */
class Socket {
  received = 0;
  private waiting: (() => void)[] = [];
  constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const { type } = JSON.parse(String(data)) as { type: string };
      if (type !== "Transition" && type !== "MutationResponse") return;
      this.received += 1;
      for (const wake of this.waiting.splice(0)) wake();
    });
  }

  /** Resolves once `count` frames have been received. */
  reached(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (this.received >= count ? resolve() : this.waiting.push(check));
      check();
    });
  }

  send(message: unknown) {
    this.ws.send(JSON.stringify(message));
  }
}

async function connect(token: string | null, subscribe: boolean): Promise<Socket> {
  const ws = new WebSocket(syncUrl);
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  const socket = new Socket(ws);
  socket.send({ type: "Connect", sessionId: randomUUID(), connectionCount: 0 });
  if (token !== null)
    socket.send({ type: "Authenticate", tokenType: "User", value: token, baseVersion: 0 });
  if (subscribe)
    socket.send({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [{ type: "Add", queryId: 0, udfPath: "counters:get", args: [{ name: "c" }] }],
    });
  return socket;
}

const watchers: Socket[] = [];
for (let i = 0; i < watcherCount; i++)
  watchers.push(await connect(await backend.token(`watcher${i}`, `session${i}`), true));
const driver = await connect(null, false);
// The Authenticate's Transition and the subscription's first value.
await Promise.all(watchers.map((w) => w.reached(2)));

let requestId = 0;
async function commit() {
  const before = watchers.map((w) => w.received);
  const answered = driver.reached(driver.received + 1);
  driver.send({
    type: "Mutation",
    requestId: requestId++,
    udfPath: "counters:increment",
    args: [{ name: "c" }],
  });
  await answered;
  await Promise.all(watchers.map((w, i) => w.reached(before[i] + 1)));
}

for (let i = 0; i < 100; i++) await commit();
const cpuBefore = cpuSeconds(backend.pid);
const started = performance.now();
for (let i = 0; i < commits; i++) await commit();
const cpu = cpuSeconds(backend.pid) - cpuBefore;
const wallMs = (performance.now() - started) / commits;
console.log(
  `${watcherCount} watchers, ${commits} commits: backend ${((cpu * 1e6) / (commits * watcherCount)).toFixed(1)} µs CPU per delivery, ` +
    `${((cpu * 1e3) / commits).toFixed(2)} ms per commit (wall ${wallMs.toFixed(2)} ms)`,
);
for (const socket of [...watchers, driver]) socket.ws.terminate();
await backend.close();
