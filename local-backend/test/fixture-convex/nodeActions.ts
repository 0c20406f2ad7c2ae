"use node";
// A module of Convex's Node.js runtime: its actions have the 10-minute limit.
import { actionGeneric } from "convex/server";
import { v } from "convex/values";

export const slow = actionGeneric({
  args: { ms: v.number() },
  handler: async (_ctx, { ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return ms;
  },
});
