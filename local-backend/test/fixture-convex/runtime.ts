// Functions that exercise the syscalls a query or mutation makes (test/function-runtime.test.ts).
import { anyApi, mutationGeneric, queryGeneric } from "convex/server";
import { ConvexError, v } from "convex/values";

/** Inserts, patches, replaces and deletes in one transaction; returns what each step read back. */
export const writeCycle = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const id = await ctx.db.insert("counters", { name, value: 1 });
    await ctx.db.patch(id, { value: 2 });
    const patched = await ctx.db.get(id);
    await ctx.db.replace(id, { name: `${name}-replaced`, value: 3 });
    const replaced = await ctx.db.get(id);
    const kept = await ctx.db.insert("counters", { name, value: 10 });
    await ctx.db.delete(id);
    return {
      patched: patched?.value,
      replaced: replaced?.name,
      deleted: (await ctx.db.get(id)) === null,
      kept,
    };
  },
});

/** normalizeId of an id of the table, of another table and of no id. */
export const normalize = queryGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) => ({
    counters: ctx.db.normalizeId("counters", id),
    messages: ctx.db.normalizeId("messages", id),
    garbage: ctx.db.normalizeId("counters", "not-an-id"),
  }),
});

/** An index range, ordered and limited, and a page of the same range. */
export const byName = queryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const first = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .order("desc")
      .first();
    const page = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .paginate({ numItems: 10, cursor: null });
    return { first: first?.value ?? null, page: page.page.map((c) => c.value), done: page.isDone };
  },
});

/** Two `.paginate()` calls in one function: Convex refuses the second. */
export const twoPages = queryGeneric({
  args: {},
  handler: async (ctx) => {
    await ctx.db.query("counters").paginate({ numItems: 1, cursor: null });
    await ctx.db.query("messages").paginate({ numItems: 1, cursor: null });
    return null;
  },
});

/** Writes, then throws a ConvexError: the write is rolled back and the data reaches the caller. */
export const writeThenThrow = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    await ctx.db.insert("counters", { name, value: 1 });
    throw new ConvexError({ code: "REFUSED", name });
  },
});

/** fetch() inside a mutation: Convex refuses it. */
export const fetchInMutation = mutationGeneric({
  args: {},
  handler: async () => {
    await fetch("http://127.0.0.1:1/");
    return null;
  },
});

/** A nested mutation and query, and a scheduled job, from a mutation. */
export const nestedAndScheduled = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    await ctx.runMutation(anyApi.counters.increment, { name });
    const counted = await ctx.runQuery(anyApi.counters.get, { name });
    const jobId = await ctx.scheduler.runAfter(0, anyApi.counters.increment, { name });
    return { counted, jobId, job: (await ctx.db.system.get(jobId))?.state.kind };
  },
});

/** A file's metadata before and after deleting it in one transaction; `fail` throws after the delete. */
export const deleteFile = mutationGeneric({
  args: { storageId: v.id("_storage"), fail: v.boolean() },
  handler: async (ctx, { storageId, fail }) => {
    const before = await ctx.storage.getMetadata(storageId);
    await ctx.storage.delete(storageId);
    const after = await ctx.storage.getMetadata(storageId);
    if (fail) throw new ConvexError({ code: "UNDONE" });
    return { before: before?.size ?? null, after };
  },
});
