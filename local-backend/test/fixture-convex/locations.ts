import { mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const update = mutationGeneric({
  args: { reporter: v.string(), city: v.string(), lat: v.number(), lng: v.number() },
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("locations")
      .withIndex("by_reporter", (q) => q.eq("reporter", args.reporter))
      .unique();
    if (row) await ctx.db.patch(row._id, args);
    else await ctx.db.insert("locations", args);
  },
});

export const current = queryGeneric({
  args: { city: v.string() },
  handler: async (ctx, { city }) => {
    const rows = await ctx.db
      .query("locations")
      .withIndex("by_city", (q) => q.eq("city", city))
      .take(500);
    return rows.map((r) => ({ id: r.reporter, lat: r.lat, lng: r.lng }));
  },
});
