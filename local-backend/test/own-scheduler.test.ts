// Scheduled jobs are the engine's (engine/scheduler.ts): `ctx.scheduler` of mutations and actions is
// answered in the caller's transaction (an action's in one of its own), and a due job runs as any call
// does (Engine.call), not through convex-test's scheduler: convex-test's runs of queries and mutations
// are made to throw here, and the jobs still run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend, tempDataDir, withoutConvexTest } from "./helpers.ts";

interface Job {
  _id: string;
  name: string;
  completedTime?: number;
  state: { kind: string; error?: string };
}

let backend: Backend;
let http: ConvexHttpClient;
let dataDir: string;
const start = async () => {
  backend = await startTestBackend({ dataDir });
  http = new ConvexHttpClient(backend.url, { logger: false });
};
beforeAll(async () => {
  dataDir = tempDataDir();
  await start();
});
afterAll(closeTestBackends);

const job = (id: string) => http.query(anyApi.jobs.job, { id }) as Promise<Job>;
const notes = () => http.query(anyApi.jobs.notes, {}) as Promise<string[]>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The job once `predicate` holds (polled). */
async function waitFor(id: string, predicate: (job: Job) => boolean): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const current = await job(id);
    if (predicate(current)) return current;
    await sleep(50);
  }
  throw new Error(`job ${id} never got there: ${JSON.stringify(await job(id))}`);
}

const finished = (job: Job) => !["pending", "inProgress"].includes(job.state.kind);

const scheduleFromMutation = (fn: string, note: string, delayMs = 0) =>
  http.mutation(anyApi.jobs.schedule, { fn, note, delayMs }) as Promise<string>;
const scheduleFromAction = (fn: string, note: string, delayMs = 0) =>
  http.action(anyApi.jobs.scheduleFromAction, { fn, note, delayMs }) as Promise<string>;

describe("the engine's scheduler", () => {
  it("runs a mutation job scheduled from a mutation, as its own request", async () => {
    const done = await withoutConvexTest(backend, async () => {
      const id = await scheduleFromMutation("noteScheduledId", "from-mutation");
      return waitFor(id, finished);
    });
    expect(done.state).toEqual({ kind: "success" });
    expect(done.name).toBe("jobs:noteScheduledId");
    expect(await notes()).toContain(`from-mutation ran as ${done._id}`);
  });

  it("runs jobs an action schedules, an action job through inProgress", async () => {
    const [mutationJob, actionJob] = await withoutConvexTest(backend, async () => {
      const ids = [
        await scheduleFromAction("okMutation", "action-m"),
        await scheduleFromAction("slowAction", "action-a"),
      ];
      await waitFor(ids[1], (job) => job.state.kind === "inProgress");
      await http.mutation(anyApi.jobs.release, { note: "action-a" });
      return Promise.all(ids.map((id) => waitFor(id, finished)));
    });
    expect(mutationJob.state).toEqual({ kind: "success" });
    expect(actionJob.state).toEqual({ kind: "success" });
    expect(typeof actionJob.completedTime).toBe("number");
    expect(await notes()).toEqual(expect.arrayContaining(["action-m", "action-a finished"]));
  });

  it("keeps a failed job's error text with its stack frames, and none of its writes", async () => {
    const failed = await withoutConvexTest(backend, async () =>
      waitFor(await scheduleFromMutation("failingMutation", "own-boom"), finished),
    );
    expect(failed.state.kind).toBe("failed");
    expect(failed.state.error).toMatch(/^Uncaught Error: job failed: own-boom\n\s+at /);
    expect(await notes()).not.toContain("own-boom");
  });

  it("never runs a job an action canceled", async () => {
    const id = await scheduleFromAction("okMutation", "canceled-by-action", 1_000);
    await http.action(anyApi.jobs.cancelFromAction, { id });
    const canceled = await job(id);
    expect(canceled.state).toEqual({ kind: "canceled" });
    expect(typeof canceled.completedTime).toBe("number");
    await sleep(1_300);
    expect(await notes()).not.toContain("canceled-by-action");
    expect(await job(id)).toEqual(canceled);
  });

  it("after a restart runs pending jobs, fails running ones and never runs canceled ones", async () => {
    const pending = await scheduleFromMutation("okMutation", "rearmed", 800);
    const canceled = await scheduleFromMutation("okMutation", "stays-canceled", 800);
    await http.mutation(anyApi.jobs.cancel, { id: canceled });
    const running = await scheduleFromMutation("slowAction", "interrupted");
    await waitFor(running, (job) => job.state.kind === "inProgress");
    await backend.close();
    await start();
    expect(await job(running)).toMatchObject({
      state: { kind: "failed", error: "Transient error while executing action" },
    });
    expect((await job(pending)).state).toEqual({ kind: "pending" });
    expect((await waitFor(pending, finished)).state).toEqual({ kind: "success" });
    await sleep(300);
    expect(await notes()).toContain("rearmed");
    expect(await notes()).not.toContain("stays-canceled");
    expect((await job(canceled)).state).toEqual({ kind: "canceled" });
  });
});
