import { internalMutationGeneric } from "convex/server";
import { v } from "convex/values";

export const init = internalMutationGeneric({
  args: { demo: v.boolean() },
  handler: async (ctx, { demo }) => {
    await ctx.db.insert("messages", { channel: "seed", body: demo ? "demo" : "plain" });
  },
});
