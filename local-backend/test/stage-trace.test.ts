import { anyApi } from "convex/server";
import { afterAll, expect, it } from "vitest";

// Read once when stage-trace.ts loads: set before anything imports it.
process.env.LOCAL_BACKEND_TRACE_STAGES = "1";
const { closeTestBackends, newClient, startTestBackend } = await import("./helpers.ts");
const { resetStageTrace, stageJoins, stageSummary } = await import("../stage-trace.ts");

afterAll(closeTestBackends);

it("times each stage from a mutation's arrival to the frame that carries its effect", async () => {
  const backend = await startTestBackend();
  const watcher = newClient(backend.url);
  const writer = newClient(backend.url);
  try {
    // one subscription throughout: its update, not a fresh subscription's first value, carries the write
    let seen: (rows: unknown[]) => void = () => {};
    const loaded = new Promise<void>((resolve) => (seen = () => resolve()));
    const unsubscribe = watcher.onUpdate(anyApi.messages.list, { channel: "trace" }, (rows) =>
      seen(rows as unknown[]),
    );
    await loaded;
    resetStageTrace();
    const arrived = new Promise<void>(
      (resolve) => (seen = (rows) => (rows.length === 1 ? resolve() : undefined)),
    );
    await writer.mutation(anyApi.messages.send, { channel: "trace", body: "hello" });
    await arrived;
    unsubscribe();

    const stages = stageSummary();
    for (const stage of [
      "mutation: received → run starts",
      "mutation: run starts → committed",
      "mutation: committed → fsync done",
      "fdatasync (one call)",
      "update: committed → pass starts",
      "update: pass starts → query re-run",
      "update: re-run → fsync done, handed over",
      "update: ws.send → written to the socket",
    ]) {
      expect(stages[stage]?.n, stage).toBeGreaterThanOrEqual(1);
      expect(stages[stage].p50, stage).toBeGreaterThanOrEqual(0);
    }
    // the watcher's update, timed from the writer's mutation: no stage of it is left out
    const total = stages["update: mutation received → written (total)"];
    expect(total.n).toBe(1);
    const parts = [
      "update: mutation received → committed",
      "update: committed → pass starts",
      "update: pass starts → query re-run",
      "update: re-run → fsync done, handed over",
      "update: handed over → connection queue reaches it",
      "update: dequeued → ws.send",
      "update: ws.send → written to the socket",
    ].reduce((sum, stage) => sum + stages[stage].p50, 0);
    expect(parts).toBeCloseTo(total.p50, 6);
    // what a client joins with its own clock: the mutation's arrival, the Transition's write
    const joins = stageJoins();
    expect(Object.keys(joins.received)).toHaveLength(1);
    expect(Object.keys(joins.written)).toHaveLength(1);
  } finally {
    await Promise.all([watcher.close(), writer.close()]);
  }
});
