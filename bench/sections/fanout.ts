/**
 * Fan-out with the real app functions against the Socket.IO peer, both driven by bench/lib/fanout.ts:
 * per step N professionals call locations:update every 5 s while N customers watch their city
 * (plus 50 unrelated subscriptions on ours). A fresh server per step and target; the clients run in
 * generator processes (bench/lib/fanout.ts), as many for both targets.
 */
import { startAppTarget, type Watchers } from "../lib/app-target";
import { runFanout, type FanoutResult } from "../lib/fanout";
import { startPeer } from "../peer/socketio-target";

export type FanoutStep = {
  clients: number;
  watchers: Watchers;
  ours: FanoutResult;
  peer: FanoutResult;
};

export async function fanout({
  steps = [10, 100, 300],
  durationMs = 20_000,
  watchers = "customers" as Watchers,
  traceStages = false,
  log = (_: string) => {},
} = {}): Promise<FanoutStep[]> {
  const out: FanoutStep[] = [];
  for (const n of steps) {
    const app = await startAppTarget(n, watchers, { traceStages });
    const ours = await runFanout(app, n, { durationMs });
    await app.close();
    log(
      `  fan-out ${n}+${n}: ours p50/p95/p99 ${[ours.latency.p50, ours.latency.p95, ours.latency.p99].map((x) => x.toFixed(1)).join("/")} ms, ${ours.deliveries}/${ours.expected} delivered, backend CPU ${(ours.serverCpu * 100).toFixed(0)}% (${ours.serverCpuPerDeliveryUs.toFixed(0)} µs per delivery), generator processes ${generatorCpu(ours)}`,
    );
    const peerTarget = await startPeer();
    const peer = await runFanout(peerTarget, n, { durationMs });
    await peerTarget.close();
    log(
      `  fan-out ${n}+${n}: ours p95 ${ours.latency.p95.toFixed(1)} ms, peer p95 ${peer.latency.p95.toFixed(1)} ms; CPU per delivery ours ${ours.serverCpuPerDeliveryUs.toFixed(0)} µs, peer ${peer.serverCpuPerDeliveryUs.toFixed(0)} µs; generator processes (max/mean of a core) ours ${generatorCpu(ours)}, peer ${generatorCpu(peer)}`,
    );
    out.push({ clients: n, watchers, ours, peer });
  }
  return out;
}

/** "3 × 31%/28%": generator processes, the busiest one's CPU and their mean, in % of a core. */
export const generatorCpu = ({ generatorCpu: g }: FanoutResult) =>
  `${g.processes} × ${(g.max * 100).toFixed(0)}%/${(g.mean * 100).toFixed(0)}%`;
