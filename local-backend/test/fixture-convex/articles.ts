import { mutationGeneric, paginationOptsValidator, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const insert = mutationGeneric({
  args: { rows: v.array(v.object({ title: v.string(), category: v.string() })) },
  handler: async (ctx, { rows }) => {
    for (const row of rows) await ctx.db.insert("articles", row);
  },
});

export const search = queryGeneric({
  args: { text: v.string(), category: v.optional(v.string()), take: v.optional(v.number()) },
  handler: async (ctx, { text, category, take }) => {
    const query = ctx.db
      .query("articles")
      .withSearchIndex("search_title", (q) =>
        category === undefined
          ? q.search("title", text)
          : q.search("title", text).eq("category", category),
      );
    const rows = take === undefined ? await query.collect() : await query.take(take);
    return rows.map((r) => r.title);
  },
});

export const searchPage = queryGeneric({
  args: { text: v.string(), paginationOpts: paginationOptsValidator },
  handler: async (ctx, { text, paginationOpts }) => {
    const result = await ctx.db
      .query("articles")
      .withSearchIndex("search_title", (q) => q.search("title", text))
      .paginate(paginationOpts);
    return { ...result, page: result.page.map((r) => r.title) };
  },
});

export const searchOnWrongField = queryGeneric({
  args: {},
  handler: async (ctx) =>
    await ctx.db
      .query("articles")
      .withSearchIndex("search_title", (q) => q.search("title", "x").eq("title" as "category", "x"))
      .collect(),
});
