import { mutationGeneric, paginationOptsValidator, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const page = queryGeneric({
  args: {
    list: v.string(),
    paginationOpts: paginationOptsValidator,
    minRank: v.optional(v.number()),
  },
  handler: async (ctx, { list, paginationOpts, minRank }) => {
    const query = ctx.db.query("items").withIndex("by_list_rank", (q) => q.eq("list", list));
    return await (
      minRank === undefined ? query : query.filter((q) => q.gte(q.field("rank"), minRank))
    ).paginate(paginationOpts);
  },
});

export const other = queryGeneric({
  args: { paginationOpts: paginationOptsValidator },
  handler: async (ctx, { paginationOpts }) =>
    await ctx.db.query("items").order("desc").paginate(paginationOpts),
});

export const insert = mutationGeneric({
  args: { list: v.string(), ranks: v.array(v.number()) },
  handler: async (ctx, { list, ranks }) => {
    for (const rank of ranks) await ctx.db.insert("items", { list, rank });
  },
});

export const remove = mutationGeneric({
  args: { list: v.string(), rank: v.number() },
  handler: async (ctx, { list, rank }) => {
    const row = await ctx.db
      .query("items")
      .withIndex("by_list_rank", (q) => q.eq("list", list))
      .filter((q) => q.eq(q.field("rank"), rank))
      .unique();
    if (row) await ctx.db.delete(row._id);
  },
});
