import { internalQueryGeneric, mutationGeneric, queryGeneric } from "convex/server";
import { ConvexError, v } from "convex/values";

export const get = queryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    return row?.value ?? 0;
  },
});

export const increment = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    if (row) await ctx.db.patch(row._id, { value: row.value + 1 });
    else await ctx.db.insert("counters", { name, value: 1 });
    return (row?.value ?? 0) + 1;
  },
});

export const getInternal = internalQueryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    return row?.value ?? 0;
  },
});

export const getOrThrow = internalQueryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    if (!row) throw new ConvexError({ code: "NO_COUNTER", name });
    return row.value;
  },
});
