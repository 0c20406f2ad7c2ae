import { actionGeneric, mutationGeneric } from "convex/server";
import { v } from "convex/values";

export const insert = mutationGeneric({
  args: { label: v.string(), kind: v.string(), vector: v.array(v.float64()) },
  handler: async (ctx, args) => await ctx.db.insert("embeddings", args),
});

export const search = actionGeneric({
  args: {
    vector: v.array(v.float64()),
    limit: v.optional(v.number()),
    kinds: v.optional(v.array(v.string())),
    filterOn: v.optional(v.string()),
  },
  handler: async (ctx, { vector, limit, kinds, filterOn }) => {
    const results = await ctx.vectorSearch("embeddings", "by_vector", {
      vector,
      limit,
      filter:
        kinds === undefined
          ? undefined
          : (q) => q.or(...kinds.map((k) => q.eq((filterOn ?? "kind") as "kind", k))),
    });
    return results;
  },
});
