import { actionGeneric, mutationGeneric } from "convex/server";

export const subjectMutation = mutationGeneric({
  args: {},
  handler: async (ctx) => (await ctx.auth.getUserIdentity())?.subject ?? null,
});

export const subjectAction = actionGeneric({
  args: {},
  handler: async (ctx) => (await ctx.auth.getUserIdentity())?.subject ?? null,
});
