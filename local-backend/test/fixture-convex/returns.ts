import { anyApi, mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

/** Inserts a counter, then returns a value its `returns` validator refuses when `bad`. */
export const insertAndReturn = mutationGeneric({
  args: { name: v.string(), bad: v.boolean() },
  returns: v.string(),
  handler: async (ctx, { name, bad }) => {
    await ctx.db.insert("counters", { name, value: 1 });
    return (bad ? 42 : "ok") as string;
  },
});

/** Writes, then calls insertAndReturn as a nested mutation and catches its failure. */
export const outerCatchesNested = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    await ctx.db.insert("counters", { name: `${name}-outer`, value: 1 });
    try {
      await ctx.runMutation(anyApi.returns.insertAndReturn, { name: `${name}-inner`, bad: true });
    } catch {
      return "caught";
    }
    return "not thrown";
  },
});

export const countersNamed = queryGeneric({
  args: { prefix: v.string() },
  handler: async (ctx, { prefix }) =>
    (await ctx.db.query("counters").collect())
      .filter((c) => c.name.startsWith(prefix))
      .map((c) => c.name)
      .sort(),
});
