import { actionGeneric, mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const subjectMutation = mutationGeneric({
  args: {},
  handler: async (ctx) => (await ctx.auth.getUserIdentity())?.subject ?? null,
});

export const subjectAction = actionGeneric({
  args: {},
  handler: async (ctx) => (await ctx.auth.getUserIdentity())?.subject ?? null,
});

export const subjectAndCounter = queryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    return { subject: (await ctx.auth.getUserIdentity())?.subject ?? null, value: row?.value ?? 0 };
  },
});

/** The caller's whole identity, as ctx.auth.getUserIdentity() gives it (conformance-auth-config.test.ts). */
export const full = queryGeneric({
  args: {},
  handler: async (ctx) => await ctx.auth.getUserIdentity(),
});
