import { mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const generateUploadUrl = mutationGeneric({
  args: {},
  handler: async (ctx) => await ctx.storage.generateUploadUrl(),
});

export const url = queryGeneric({
  args: { storageId: v.id("_storage") },
  handler: async (ctx, { storageId }) => await ctx.storage.getUrl(storageId),
});
