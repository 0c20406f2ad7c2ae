// Functions that exercise the syscalls a query or mutation makes (test/function-runtime.test.ts).
import { anyApi, makeFunctionReference, mutationGeneric, queryGeneric } from "convex/server";
import { ConvexError, v, type Value } from "convex/values";

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

/** Throws a ConvexError whose data holds an int64. */
export const throwBigint = queryGeneric({
  args: {},
  handler: async () => {
    throw new ConvexError({ code: "BIG", n: 2n ** 60n });
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

/**
 * Writes `mark`, then calls the function at `path` with ctx.runQuery or ctx.runMutation; a failure of the
 * nested call is caught and answered (its message and ConvexError data), and the caller commits.
 */
export const callNested = mutationGeneric({
  args: {
    kind: v.union(v.literal("query"), v.literal("mutation")),
    path: v.string(),
    args: v.any(),
    mark: v.string(),
  },
  handler: async (ctx, { kind, path, args, mark }) => {
    await ctx.db.insert("counters", { name: mark, value: 1 });
    try {
      const value =
        kind === "query"
          ? await ctx.runQuery(makeFunctionReference<"query">(path), args)
          : await ctx.runMutation(makeFunctionReference<"mutation">(path), args);
      return { value };
    } catch (error) {
      return { error: (error as Error).message, data: (error as ConvexError<Value>).data ?? null };
    }
  },
});

/** The function at `path` called with ctx.runQuery from a query. */
export const queryNested = queryGeneric({
  args: { path: v.string(), args: v.any() },
  handler: async (ctx, { path, args }) => ctx.runQuery(makeFunctionReference<"query">(path), args),
});

/** Writes a counter, then reads it back through nested calls: a query, a mutation, a stale snapshot. */
export const nestedSeesWrites = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    await ctx.db.insert("counters", { name, value: 5 });
    const seenByQuery = await ctx.runQuery(anyApi.counters.get, { name });
    const staleSnapshot = await ctx.runQuery(
      anyApi.counters.get,
      { name },
      { useStaleSnapshot: true },
    );
    const returned = await ctx.runMutation(anyApi.counters.increment, { name });
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    return { seenByQuery, staleSnapshot, returned, seenAfter: row?.value };
  },
});

/** Reads a query's stream document by document, a stale-snapshot query between two of them. */
export const streamAroundSnapshot = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    await ctx.db.insert("counters", { name, value: 1 });
    await ctx.db.insert("counters", { name, value: 2 });
    const read: { value: number; stale: unknown }[] = [];
    const rows = ctx.db.query("counters").withIndex("by_name", (q) => q.eq("name", name));
    for await (const row of rows) {
      const stale = await ctx.runQuery(
        anyApi.counters.exists,
        { name },
        { useStaleSnapshot: true },
      );
      read.push({ value: row.value as number, stale });
    }
    return read;
  },
});

/** Two nested mutations started together: they run one after the other. */
export const concurrentNested = mutationGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) =>
    Promise.all([
      ctx.runMutation(anyApi.counters.increment, { name }),
      ctx.runMutation(anyApi.counters.increment, { name }),
    ]),
});

/** The values of the counters of one name, in one index range. */
export const valuesNamed = queryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const rows = ctx.db.query("counters").withIndex("by_name", (q) => q.eq("name", name));
    return (await rows.collect()).map((row) => row.value as number);
  },
});

/**
 * Writes `rows` counters named `name` (values 0, 1, …), then reads them with a nested query, under `documentsRead` when
 * given: the documents and index ranges the transaction's metrics gained, and the nested failure if any.
 */
export const nestedMetrics = mutationGeneric({
  args: { name: v.string(), rows: v.number(), documentsRead: v.optional(v.number()) },
  handler: async (ctx, { name, rows, documentsRead }) => {
    for (let i = 0; i < rows; i++) await ctx.db.insert("counters", { name, value: i });
    const before = await ctx.meta.getTransactionMetrics();
    let counted: number[] | null = null;
    let error: string | null = null;
    try {
      counted = await ctx.runQuery(
        anyApi.runtime.valuesNamed,
        { name },
        documentsRead === undefined ? undefined : { transactionLimits: { documentsRead } },
      );
    } catch (e) {
      error = (e as Error).message;
    }
    const after = await ctx.meta.getTransactionMetrics();
    return {
      counted,
      error,
      documentsRead: after.documentsRead.used - before.documentsRead.used,
      databaseQueries: after.databaseQueries.used - before.databaseQueries.used,
    };
  },
});
