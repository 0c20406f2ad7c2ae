// `_scheduled_functions` as Convex keeps it (crates/model/src/scheduled_jobs): state pending →
// (inProgress, actions only) → success | failed {error} | canceled; every finished state carries
// `completedTime`; `scheduler.cancel` of a finished job changes nothing.
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Backend } from "../server.ts";
import {
  closeTestBackends,
  newClient,
  nextValue,
  startTestBackend,
  tempDataDir,
} from "./helpers.ts";

interface Job {
  _id: string;
  name: string;
  args: unknown[];
  scheduledTime: number;
  completedTime?: number;
  state: { kind: string; error?: string };
}

let backend: Backend;
let http: ConvexHttpClient;
let dataDir: string;
const start = (dir: string) => startTestBackend({ dataDir: dir });
beforeAll(async () => {
  dataDir = tempDataDir();
  backend = await start(dataDir);
  http = new ConvexHttpClient(backend.url, { logger: false });
});
afterAll(closeTestBackends);

const schedule = (fn: string, note: string, delayMs = 0) =>
  http.mutation(anyApi.jobs.schedule, { fn, note, delayMs }) as Promise<string>;

/** The job once `predicate` holds, watched through a subscription (every state it passes through). */
async function watch(id: string, predicate: (job: Job) => boolean, seen: string[] = []) {
  const client = newClient(backend.url);
  try {
    return await nextValue<Job>(client, anyApi.jobs.job, { id }, (job) => {
      if (seen.at(-1) !== job.state.kind) seen.push(job.state.kind);
      return predicate(job);
    });
  } finally {
    await client.close();
  }
}

const finished = (job: Job) => !["pending", "inProgress"].includes(job.state.kind);

it("a mutation job goes from pending straight to success, with completedTime, in the commit of its writes", async () => {
  const before = Date.now();
  const id = await schedule("okMutation", "m1", 300);
  const pending = (await http.query(anyApi.jobs.job, { id })) as Job;
  expect(pending.state).toEqual({ kind: "pending" });
  expect(pending.completedTime).toBeUndefined();
  const seen: string[] = [];
  const job = await watch(id, finished, seen);
  expect(job.state).toEqual({ kind: "success" });
  expect(seen).not.toContain("inProgress");
  expect(job.completedTime).toBeGreaterThanOrEqual(before);
  expect(job.name).toBe("jobs:okMutation");
  expect(await http.query(anyApi.jobs.notes, {})).toContain("m1");
});

it("an action job passes through inProgress and ends success with completedTime", async () => {
  const id = await schedule("slowAction", "a1");
  await watch(id, (job) => job.state.kind === "inProgress");
  await http.mutation(anyApi.jobs.release, { note: "a1" });
  const job = await watch(id, finished);
  expect(job.state).toEqual({ kind: "success" });
  expect(typeof job.completedTime).toBe("number");
});

it("a failed mutation job keeps its error, not its writes", async () => {
  const id = await schedule("failingMutation", "boom-m");
  const job = await watch(id, finished);
  expect(job.state.kind).toBe("failed");
  expect(job.state.error).toMatch(/^Uncaught Error: job failed: boom-m/);
  expect(typeof job.completedTime).toBe("number");
  expect(await http.query(anyApi.jobs.notes, {})).not.toContain("boom-m");
});

it("a failed action job keeps its error", async () => {
  const id = await schedule("failingAction", "boom-a");
  const job = await watch(id, finished);
  expect(job.state).toMatchObject({ kind: "failed" });
  expect(job.state.error).toMatch(/^Uncaught Error: action exploded/);
  expect(typeof job.completedTime).toBe("number");
});

it("cancel of a pending job: canceled with completedTime, and it never runs", async () => {
  // due far enough ahead that a loaded machine still cancels it first
  const due = Date.now() + 2_000;
  const id = await schedule("okMutation", "never", 2_000);
  await http.mutation(anyApi.jobs.cancel, { id });
  const job = (await http.query(anyApi.jobs.job, { id })) as Job;
  expect(job.state).toEqual({ kind: "canceled" });
  expect(typeof job.completedTime).toBe("number");
  // past the time it was due: it still has not run
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()) + 300));
  expect(await http.query(anyApi.jobs.notes, {})).not.toContain("never");
  expect(((await http.query(anyApi.jobs.job, { id })) as Job).state).toEqual({ kind: "canceled" });
});

it("cancel of a finished job (success or failed) leaves it unchanged", async () => {
  const ok = await watch(await schedule("okMutation", "done"), finished);
  const failed = await watch(await schedule("failingAction", "done-f"), finished);
  for (const job of [ok, failed]) {
    await http.mutation(anyApi.jobs.cancel, { id: job._id });
    expect(await http.query(anyApi.jobs.job, { id: job._id })).toEqual(job);
  }
});

it("cancel of a running action marks it canceled; its end does not change that", async () => {
  const id = await schedule("slowAction", "c1");
  await watch(id, (job) => job.state.kind === "inProgress");
  await http.mutation(anyApi.jobs.cancel, { id });
  const canceled = (await http.query(anyApi.jobs.job, { id })) as Job;
  expect(canceled.state).toEqual({ kind: "canceled" });
  await http.mutation(anyApi.jobs.release, { note: "c1" });
  const notes = newClient(backend.url);
  try {
    await nextValue<string[]>(notes, anyApi.jobs.notes, {}, (n) => n.includes("c1 finished"));
  } finally {
    await notes.close();
  }
  expect(await http.query(anyApi.jobs.job, { id })).toEqual(canceled);
});

it("an action job running when the backend stopped is failed on restart, not run again", async () => {
  const id = await schedule("slowAction", "r1");
  await watch(id, (job) => job.state.kind === "inProgress");
  await backend.close();
  backend = await start(dataDir);
  http = new ConvexHttpClient(backend.url, { logger: false });
  const job = (await http.query(anyApi.jobs.job, { id })) as Job;
  expect(job.state).toEqual({ kind: "failed", error: "Transient error while executing action" });
  expect(typeof job.completedTime).toBe("number");
});
