import { mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

/**
 * One acknowledged write = a row in `firsts`, a row in `seconds` and its client's counter + 1, in one
 * transaction; a write applied by half shows up as a lone row or a counter that disagrees.
 */
export const write = mutationGeneric({
  args: { client: v.string(), key: v.string() },
  handler: async (ctx, { client, key }) => {
    await ctx.db.insert("firsts", { key });
    const counter = await ctx.db
      .query("counters")
      .withIndex("by_client", (q) => q.eq("client", client))
      .unique();
    if (counter === null) await ctx.db.insert("counters", { client, value: 1 });
    else await ctx.db.patch(counter._id, { value: counter.value + 1 });
    await ctx.db.insert("seconds", { key });
    return key;
  },
});

export const dump = queryGeneric({
  args: {},
  handler: async (ctx) => ({
    firsts: (await ctx.db.query("firsts").collect()).map((d) => d.key),
    seconds: (await ctx.db.query("seconds").collect()).map((d) => d.key),
    counters: Object.fromEntries(
      (await ctx.db.query("counters").collect()).map((c) => [c.client, c.value]),
    ),
  }),
});

/** How many times a key was written (the reconnect drill's exactly-once check). */
export const count = queryGeneric({
  args: { key: v.string() },
  handler: async (ctx, { key }) =>
    (
      await ctx.db
        .query("firsts")
        .withIndex("by_key", (q) => q.eq("key", key))
        .collect()
    ).length,
});

export const total = queryGeneric({
  args: {},
  handler: async (ctx) => (await ctx.db.query("firsts").collect()).length,
});
