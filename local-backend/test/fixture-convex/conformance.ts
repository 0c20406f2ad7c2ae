// Functions the conformance tests (conformance-*.test.ts) call to see Convex's errors and limits.
import { actionGeneric, anyApi, mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const validated = mutationGeneric({
  args: {
    name: v.string(),
    point: v.object({ x: v.number(), y: v.optional(v.number()) }),
    tags: v.array(v.string()),
    kind: v.optional(v.union(v.literal("a"), v.literal("b"))),
    exact: v.optional(v.literal("only")),
    ref: v.optional(v.id("messages")),
    scores: v.optional(v.record(v.string(), v.number())),
  },
  returns: v.null(),
  handler: async () => null,
});

export const badReturn = queryGeneric({
  args: {},
  returns: v.object({ count: v.number() }),
  handler: async () => ({ count: "three" }) as unknown as { count: number },
});

export const throwsTypeError = queryGeneric({
  args: {},
  handler: async () => {
    throw new TypeError("not a function");
  },
});

/** A mutation and an action whose handler throws a plain Error: on a dev deployment the client sees its message. */
export const throwsInMutation = mutationGeneric({
  args: { label: v.string() },
  handler: async (_ctx, { label }) => {
    throw new Error(`mutation failed: ${label}`);
  },
});

export const throwsInAction = actionGeneric({
  args: { label: v.string() },
  handler: async (_ctx, { label }) => {
    throw new Error(`action failed: ${label}`);
  },
});

export const insert = mutationGeneric({
  args: { doc: v.any() },
  handler: async (ctx, { doc }) => ctx.db.insert("blobs", doc),
});

/** Inserts a value built here (not passed as an argument): an array, an object with `fields` fields, or `depth` nested objects. */
export const insertBuilt = mutationGeneric({
  args: {
    arrayLength: v.optional(v.number()),
    fields: v.optional(v.number()),
    depth: v.optional(v.number()),
  },
  handler: async (ctx, { arrayLength, fields, depth }) => {
    let value: unknown = null;
    if (arrayLength !== undefined) value = Array.from({ length: arrayLength }, () => 0);
    if (fields !== undefined)
      value = Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, i]));
    if (depth !== undefined) for (let i = 0; i < depth; i++) value = { d: value };
    return await ctx.db.insert("blobs", { value });
  },
});

export const patch = mutationGeneric({
  args: { id: v.id("blobs"), fields: v.any() },
  handler: async (ctx, { id, fields }) => ctx.db.patch(id, fields),
});

export const count = queryGeneric({
  args: {},
  handler: async (ctx) => (await ctx.db.query("blobs").collect()).length,
});

/** Inserts `count` documents whose `value` is a string of `bytes` characters. */
export const insertMany = mutationGeneric({
  args: { count: v.number(), bytes: v.optional(v.number()) },
  handler: async (ctx, { count, bytes = 1 }) => {
    const value = "x".repeat(bytes);
    for (let i = 0; i < count; i++) await ctx.db.insert("blobs", { value });
    return count;
  },
});

export const readAll = queryGeneric({
  args: {},
  handler: async (ctx) => {
    let total = 0;
    for await (const doc of ctx.db.query("blobs")) total += doc.value === undefined ? 0 : 1;
    return total;
  },
});

export const scheduleMany = mutationGeneric({
  args: { count: v.number() },
  handler: async (ctx, { count }) => {
    for (let i = 0; i < count; i++)
      await ctx.scheduler.runAfter(60_000, anyApi.conformance.count, {});
    return count;
  },
});

/** Runs for `ms` of CPU time (the busy machine a test runs on may stretch wall time). */
const busy = (ms: number) => {
  const start = process.cpuUsage();
  const spent = () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  while (spent() < ms);
};

export const slowQuery = queryGeneric({
  args: { ms: v.number() },
  handler: async (ctx, { ms }) => {
    busy(ms);
    return ms;
  },
});

export const slowMutation = mutationGeneric({
  args: { ms: v.number() },
  handler: async (ctx, { ms }) => {
    await ctx.db.insert("blobs", { value: "slow" });
    busy(ms);
    return ms;
  },
});

export const slowAction = actionGeneric({
  args: { ms: v.number() },
  handler: async (_ctx, { ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return ms;
  },
});

/** Returns an array of `length` numbers, or a string of `bytes` characters. */
export const big = queryGeneric({
  args: { length: v.optional(v.number()), bytes: v.optional(v.number()) },
  handler: async (_ctx, { length, bytes }) =>
    bytes !== undefined ? "x".repeat(bytes) : Array.from({ length: length ?? 0 }, (_, i) => i),
});

export const echo = queryGeneric({
  args: { value: v.any() },
  handler: async (_ctx, { value }) => (value === undefined ? null : true),
});
