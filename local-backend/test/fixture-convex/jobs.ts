import {
  actionGeneric,
  anyApi,
  internalActionGeneric,
  internalMutationGeneric,
  mutationGeneric,
  queryGeneric,
} from "convex/server";
import { v } from "convex/values";

export const schedule = mutationGeneric({
  args: {
    fn: v.union(
      v.literal("okMutation"),
      v.literal("failingMutation"),
      v.literal("okAction"),
      v.literal("failingAction"),
      v.literal("slowAction"),
      v.literal("noteScheduledId"),
    ),
    delayMs: v.number(),
    note: v.string(),
  },
  handler: async (ctx, { fn, delayMs, note }) =>
    await ctx.scheduler.runAfter(delayMs, anyApi.jobs[fn], { note }),
});

export const cancel = mutationGeneric({
  args: { id: v.id("_scheduled_functions") },
  handler: async (ctx, { id }) => await ctx.scheduler.cancel(id),
});

export const job = queryGeneric({
  args: { id: v.id("_scheduled_functions") },
  handler: async (ctx, { id }) => await ctx.db.system.get(id),
});

export const notes = queryGeneric({
  args: {},
  handler: async (ctx) => (await ctx.db.query("jobLog").collect()).map((r) => r.note),
});

export const okMutation = internalMutationGeneric({
  args: { note: v.string() },
  handler: async (ctx, { note }) => {
    await ctx.db.insert("jobLog", { note });
  },
});

export const failingMutation = internalMutationGeneric({
  args: { note: v.string() },
  handler: async (ctx, { note }) => {
    await ctx.db.insert("jobLog", { note });
    throw new Error(`job failed: ${note}`);
  },
});

export const okAction = internalActionGeneric({
  args: { note: v.string() },
  handler: async (ctx, { note }) => {
    await ctx.runMutation(anyApi.jobs.okMutation, { note });
  },
});

export const failingAction = internalActionGeneric({
  args: { note: v.string() },
  handler: async () => {
    throw new Error("action exploded");
  },
});

/** Runs until `release` is called with its note (via a jobLog row), so a test can see it inProgress. */
export const slowAction = internalActionGeneric({
  args: { note: v.string() },
  handler: async (ctx, { note }) => {
    for (let i = 0; i < 500; i++) {
      const rows = (await ctx.runQuery(anyApi.jobs.notes, {})) as string[];
      if (rows.includes(`release ${note}`)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await ctx.runMutation(anyApi.jobs.okMutation, { note: `${note} finished` });
  },
});

export const release = mutationGeneric({
  args: { note: v.string() },
  handler: async (ctx, { note }) => {
    await ctx.db.insert("jobLog", { note: `release ${note}` });
  },
});

/** `ctx.scheduler.runAfter` from an action (its own transaction). */
export const scheduleFromAction = actionGeneric({
  args: { fn: v.string(), delayMs: v.number(), note: v.string() },
  handler: async (ctx, { fn, delayMs, note }): Promise<string> =>
    await ctx.scheduler.runAfter(delayMs, anyApi.jobs[fn], { note }),
});

/** `ctx.scheduler.cancel` from an action. */
export const cancelFromAction = actionGeneric({
  args: { id: v.id("_scheduled_functions") },
  handler: async (ctx, { id }) => await ctx.scheduler.cancel(id),
});

/** Notes the job it runs as: its request metadata's `scheduledFunctionId`. */
export const noteScheduledId = internalMutationGeneric({
  args: { note: v.string() },
  handler: async (ctx, { note }) => {
    const { scheduledFunctionId } = await ctx.meta.getRequestMetadata();
    await ctx.db.insert("jobLog", { note: `${note} ran as ${scheduledFunctionId}` });
  },
});
