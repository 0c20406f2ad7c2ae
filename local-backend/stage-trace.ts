// Timestamps of each stage between a sync client's mutation and the frames that carry its effect to
// subscribers, for the fan-out benchmark (bench/README.md "Where the time goes"). Off unless the
// process starts with LOCAL_BACKEND_TRACE_STAGES=1: every caller checks `tracing` (a constant) first,
// so the untraced path pays one branch.
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

export const tracing = process.env.LOCAL_BACKEND_TRACE_STAGES === "1";

/** Unix milliseconds with sub-millisecond precision, comparable between processes of one machine. */
export const epochMs = () => performance.timeOrigin + performance.now();

/** What a subscriber's pending update owes to: the commit that made its query stale, and the re-run. */
export interface UpdateTrace {
  ts: bigint;
  /** The query cache dropped the entry (inside the commit). */
  dirtied: number;
  passStarted?: number;
  evaluated?: number;
  /** The pass's fsync was done and the update handed to the connection. */
  handedOver?: number;
  /** The connection's queue reached the update. */
  dequeued?: number;
  /** ws.send called (after any wait for a slow reader). */
  sent?: number;
}

interface MutationTrace {
  received: number;
  started: number;
  committed: number;
  durable?: number;
  flushed?: number;
}

const mutations = new Map<bigint, MutationTrace>();
const commitTimes = new Map<bigint, number>();
const samples = new Map<string, number[]>();
/** For joining with the client's own timestamps: `${sessionId}:${requestId}` → a mutation's arrival... */
const received = new Map<string, number>();
/** ...and `${sessionId}:${endVersion.ts}` → when a Transition carrying traced updates was written. */
const written = new Map<string, number>();
let loopDelay: IntervalHistogram | undefined;

export function traceStage(stage: string, ms: number) {
  sample(stage, ms);
}

function sample(stage: string, ms: number) {
  let list = samples.get(stage);
  if (!list) samples.set(stage, (list = []));
  list.push(ms);
}

/** Forgets everything recorded so far: the figures start with the measured window. */
export function resetStageTrace() {
  mutations.clear();
  commitTimes.clear();
  samples.clear();
  received.clear();
  written.clear();
  loopDelay?.disable();
  loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
}

export function traceReceived(sessionId: string | undefined, requestId: number, at: number) {
  if (sessionId !== undefined) received.set(`${sessionId}:${requestId}`, at);
}

export function traceTransitionWritten(sessionId: string | undefined, ts: string) {
  if (sessionId !== undefined) written.set(`${sessionId}:${ts}`, epochMs());
}

/** Called as each commit is appended to the log. */
export function traceCommitted(ts: bigint) {
  commitTimes.set(ts, epochMs());
}

export function traceMutation(ts: bigint, received: number, started: number) {
  const committed = commitTimes.get(ts);
  commitTimes.delete(ts);
  if (committed === undefined) return;
  mutations.set(ts, { received, started, committed });
  sample("mutation: received → run starts", started - received);
  sample("mutation: run starts → committed", committed - started);
}

export function traceMutationDurable(ts: bigint) {
  const m = mutations.get(ts);
  if (!m) return;
  m.durable = epochMs();
  sample("mutation: committed → fsync done", m.durable - m.committed);
}

export function traceMutationAnswered(ts: bigint) {
  const m = mutations.get(ts);
  if (!m) return;
  sample("mutation: received → response written", epochMs() - m.received);
}

export function traceFsync(requested: number) {
  sample("fdatasync (one call)", epochMs() - requested);
}

/** One update's frame was taken by the OS: every stage of its way from the mutation's arrival. */
export function traceWritten(update: UpdateTrace) {
  const written = epochMs();
  const m = mutations.get(update.ts);
  const steps: [string, number | undefined, number | undefined][] = [
    ["update: mutation received → committed", m?.received, m ? update.dirtied : undefined],
    ["update: committed → pass starts", update.dirtied, update.passStarted],
    ["update: pass starts → query re-run", update.passStarted, update.evaluated],
    ["update: re-run → fsync done, handed over", update.evaluated, update.handedOver],
    ["update: handed over → connection queue reaches it", update.handedOver, update.dequeued],
    ["update: dequeued → ws.send", update.dequeued, update.sent],
    ["update: ws.send → written to the socket", update.sent, written],
    ["update: mutation received → written (total)", m?.received, written],
    ["update: committed → fsync done (its commit)", m ? update.dirtied : undefined, m?.durable],
  ];
  for (const [stage, from, to] of steps)
    if (from !== undefined && to !== undefined) sample(stage, to - from);
}

export type StageSummary = Record<string, { n: number; p50: number; p95: number; p99: number }>;

/** The timestamps a client can join with its own (sent → received, written → arrived). */
export function stageJoins() {
  return { received: Object.fromEntries(received), written: Object.fromEntries(written) };
}

export function stageSummary(): StageSummary {
  const out: StageSummary = {};
  const pick = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  for (const [stage, list] of samples) {
    const sorted = [...list].sort((a, b) => a - b);
    out[stage] = {
      n: sorted.length,
      p50: pick(sorted, 50),
      p95: pick(sorted, 95),
      p99: pick(sorted, 99),
    };
  }
  if (loopDelay && loopDelay.count > 0)
    out["event loop delay"] = {
      n: loopDelay.count,
      p50: loopDelay.percentile(50) / 1e6,
      p95: loopDelay.percentile(95) / 1e6,
      p99: loopDelay.percentile(99) / 1e6,
    };
  return out;
}
