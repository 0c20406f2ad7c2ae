import {
  internalQueryGeneric,
  mutationGeneric,
  queryGeneric,
  type GenericDataModel,
  type GenericQueryCtx,
} from "convex/server";
import { ConvexError, v, type GenericId } from "convex/values";

const counter = (ctx: GenericQueryCtx<GenericDataModel>, name: string) =>
  ctx.db
    .query("counters")
    .withIndex("by_name", (q) => q.eq("name", name))
    .unique() as Promise<{ _id: GenericId<"counters">; value: number } | null>;

export const get = queryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await counter(ctx, name);
    return row?.value ?? 0;
  },
});

/** Whether the counter exists: the same result through every increment after the first. */
export const exists = queryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => (await counter(ctx, name)) !== null,
});

export const increment = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await counter(ctx, name);
    if (row) await ctx.db.patch(row._id, { value: row.value + 1 });
    else await ctx.db.insert("counters", { name, value: 1 });
    return (row?.value ?? 0) + 1;
  },
});

export const getInternal = internalQueryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await counter(ctx, name);
    return row?.value ?? 0;
  },
});

export const getOrThrow = internalQueryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await counter(ctx, name);
    if (!row) throw new ConvexError({ code: "NO_COUNTER", name });
    return row.value;
  },
});
