// Functions that cost time or bytes, for the fairness and slow-reader tests (hostile-input.test.ts).
import { mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/** Reads the whole counters table (so any counter change makes it stale), then keeps the CPU for `ms`. */
export const spin = queryGeneric({
  args: { ms: v.number(), key: v.number() },
  handler: async (ctx, { ms, key }) => {
    const rows = await ctx.db.query("counters").collect();
    busy(ms);
    return { key, counters: rows.length };
  },
});

/** Counter `name`'s value next to `chars` characters of text (ASCII, accents and emoji). */
export const big = queryGeneric({
  args: { name: v.string(), chars: v.number() },
  handler: async (ctx, { name, chars }) => {
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    return { value: row?.value ?? 0, text: "aé😀".repeat(Math.ceil(chars / 4)) };
  },
});

/** Keeps the CPU for `ms`, then adds one to counter `name`. */
export const slowIncrement = mutationGeneric({
  args: { name: v.string(), ms: v.number() },
  handler: async (ctx, { name, ms }) => {
    busy(ms);
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    if (row) await ctx.db.patch(row._id, { value: row.value + 1 });
    else await ctx.db.insert("counters", { name, value: 1 });
  },
});
