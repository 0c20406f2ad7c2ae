// Functions called and scheduled by function handle, and `ctx.meta`'s deployment metadata and snapshot
// timestamp (own-function-handles.test.ts).
import {
  actionGeneric,
  anyApi,
  createFunctionHandle,
  internalMutationGeneric,
  mutationGeneric,
  queryGeneric,
  type FunctionHandle,
} from "convex/server";
import { v } from "convex/values";

/** Its snapshot timestamp and the deployment's metadata. */
export const snapshot = queryGeneric({
  args: {},
  handler: async (ctx) => ({
    ts: ctx.meta.getSnapshotTs(),
    deployment: await ctx.meta.getDeploymentMetadata(),
  }),
});

export const bump = internalMutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    await ctx.db.insert("counters", { name, value: 1 });
    return ctx.meta.getSnapshotTs();
  },
});

/** Handles of `snapshot` and `bump`. */
async function snapshotAndBump() {
  return {
    snapshot: (await createFunctionHandle(anyApi.handles.snapshot)) as FunctionHandle<"query">,
    bump: (await createFunctionHandle(anyApi.handles.bump)) as FunctionHandle<"mutation">,
  };
}

/** Reads `snapshot` and writes with `bump` by handle, and schedules `bump` by handle. */
export const mutationByHandle = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const { snapshot, bump } = await snapshotAndBump();
    const read = (await ctx.runQuery(snapshot, {})) as { ts: bigint };
    const written = (await ctx.runMutation(bump, { name })) as bigint;
    await ctx.scheduler.runAfter(0, bump, { name: `${name}-later` });
    return { handle: snapshot, sameSnapshot: read.ts === written };
  },
});

/** Calls a query, a mutation and an action by handle. */
export const actionByHandle = actionGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const { snapshot, bump } = await snapshotAndBump();
    const inner = (await createFunctionHandle(
      anyApi.meta.innerActionMeta,
    )) as FunctionHandle<"action">;
    const { deployment } = (await ctx.runQuery(snapshot, {})) as { deployment: unknown };
    await ctx.runMutation(bump, { name });
    await ctx.scheduler.runAfter(0, bump, { name: `${name}-later` });
    return {
      deployment,
      own: await ctx.meta.getDeploymentMetadata(),
      inner: ((await ctx.runAction(inner, {})) as { name: string }).name,
    };
  },
});
