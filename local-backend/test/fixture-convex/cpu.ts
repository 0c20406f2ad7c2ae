// Actions that hold their thread: the engine runs them apart from queries and mutations.
import { actionGeneric, anyApi } from "convex/server";
import { v } from "convex/values";
import { isMainThread } from "node:worker_threads";

/** Loops for `ms` of wall time without yielding; answers whether it ran on the main thread. */
export const spin = actionGeneric({
  args: { ms: v.number() },
  handler: async (_ctx, { ms }) => {
    const end = Date.now() + ms;
    while (Date.now() < end);
    return { ms, mainThread: isMainThread };
  },
});

/** Never returns: only the time limit ends it. */
export const forever = actionGeneric({
  args: {},
  handler: async () => {
    for (;;);
  },
});

/** Calls `spin` through ctx.runAction and reads a query and the caller's identity on the way. */
export const nested = actionGeneric({
  args: {},
  handler: async (ctx) => {
    const inner = (await ctx.runAction(anyApi.cpu.spin, { ms: 1 })) as { mainThread: boolean };
    const echoed = await ctx.runQuery(anyApi.conformance.echo, { value: "read" });
    const identity = await ctx.auth.getUserIdentity();
    console.log("nested ran", echoed);
    return { inner: inner.mainThread, echoed, subject: identity?.subject ?? null };
  },
});
