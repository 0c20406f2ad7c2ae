// `ctx.meta` of each kind of function, an action's `returns`, and an action's ctx.runAction (own-actions.test.ts).
import {
  actionGeneric,
  anyApi,
  internalActionGeneric,
  internalMutationGeneric,
  mutationGeneric,
  queryGeneric,
} from "convex/server";
import { v } from "convex/values";

/** Its function metadata. */
export const queryMeta = queryGeneric({
  args: {},
  handler: async (ctx) => await ctx.meta.getFunctionMetadata(),
});

/** Its function and request metadata, and the database queries its transaction made so far. */
export const mutationMeta = mutationGeneric({
  args: {},
  handler: async (ctx) => {
    await ctx.db.query("jobLog").first();
    const { requestId, scheduledFunctionId } = await ctx.meta.getRequestMetadata();
    return {
      fn: await ctx.meta.getFunctionMetadata(),
      requestId: typeof requestId,
      scheduledFunctionId,
      databaseQueries: (await ctx.meta.getTransactionMetrics()).databaseQueries.used,
    };
  },
});

/** Its function metadata and request id, and those of the action it calls with ctx.runAction. */
export const actionMeta = actionGeneric({
  args: {},
  handler: async (ctx) => {
    const { requestId } = await ctx.meta.getRequestMetadata();
    const inner = (await ctx.runAction(anyApi.meta.innerActionMeta, {})) as {
      name: string;
      requestId: string;
    };
    return {
      fn: await ctx.meta.getFunctionMetadata(),
      inner: inner.name,
      sameRequest: inner.requestId === requestId,
    };
  },
});

export const innerActionMeta = internalActionGeneric({
  args: {},
  handler: async (ctx) => ({
    name: (await ctx.meta.getFunctionMetadata()).name,
    requestId: (await ctx.meta.getRequestMetadata()).requestId,
  }),
});

/** Returns what its `returns` validator refuses when `bad`. */
export const actionReturns = actionGeneric({
  args: { bad: v.boolean() },
  returns: v.string(),
  handler: async (_ctx, { bad }) => (bad ? 42 : "ok") as string,
});

/** Calls actions with ctx.runAction the way `call` says, and answers what they threw. */
export const runsActionBadly = actionGeneric({
  args: { call: v.union(v.literal("arguments"), v.literal("result"), v.literal("kind")) },
  handler: async (ctx, { call }) => {
    try {
      if (call === "arguments") await ctx.runAction(anyApi.cpu.spin, { ms: "x" });
      else if (call === "result") await ctx.runAction(anyApi.meta.actionReturns, { bad: true });
      else await ctx.runAction(anyApi.meta.queryMeta, {});
      return "not thrown";
    } catch (error) {
      return (error as Error).message;
    }
  },
});

/** Schedules `noteJobMeta` now. */
export const scheduleJobMeta = mutationGeneric({
  args: {},
  handler: async (ctx) => await ctx.scheduler.runAfter(0, anyApi.meta.noteJobMeta, {}),
});

/** As a scheduled job: notes the job its request metadata names. */
export const noteJobMeta = internalActionGeneric({
  args: {},
  handler: async (ctx) => {
    const { scheduledFunctionId } = await ctx.meta.getRequestMetadata();
    await ctx.runMutation(anyApi.meta.note, { note: `action ran as ${scheduledFunctionId}` });
  },
});

export const note = internalMutationGeneric({
  args: { note: v.string() },
  handler: async (ctx, { note }) => {
    await ctx.db.insert("jobLog", { note });
  },
});
