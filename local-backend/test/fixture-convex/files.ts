import { actionGeneric, mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const generateUploadUrl = mutationGeneric({
  args: {},
  handler: async (ctx) => await ctx.storage.generateUploadUrl(),
});

export const url = queryGeneric({
  args: { storageId: v.id("_storage") },
  handler: async (ctx, { storageId }) => await ctx.storage.getUrl(storageId),
});

export const metadata = queryGeneric({
  args: { storageId: v.string() },
  handler: async (ctx, { storageId }) => await ctx.storage.getMetadata(storageId as never),
});

export const metadataInAction = actionGeneric({
  args: { storageId: v.id("_storage") },
  handler: async (ctx, { storageId }) => await ctx.storage.getMetadata(storageId),
});

export const storeText = actionGeneric({
  args: { text: v.string(), type: v.optional(v.string()) },
  handler: async (ctx, { text, type }) =>
    await ctx.storage.store(new Blob([text], type === undefined ? {} : { type })),
});

export const remove = mutationGeneric({
  args: { storageId: v.id("_storage") },
  handler: async (ctx, { storageId }) => await ctx.storage.delete(storageId),
});
