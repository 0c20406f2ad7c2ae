import {
  anyApi,
  actionGeneric,
  internalMutationGeneric,
  mutationGeneric,
  queryGeneric,
} from "convex/server";
import { ConvexError, v } from "convex/values";

export const list = queryGeneric({
  args: { channel: v.string() },
  handler: async (ctx, { channel }) => {
    const rows = await ctx.db
      .query("messages")
      .withIndex("by_channel", (q) => q.eq("channel", channel))
      .collect();
    return rows.map((m) => ({ body: m.body, author: m.author ?? null }));
  },
});

export const whoami = queryGeneric({
  args: {},
  handler: async (ctx) => {
    const identity = await ctx.auth.getUserIdentity();
    return identity
      ? { subject: identity.subject, tokenIdentifier: identity.tokenIdentifier }
      : null;
  },
});

export const send = mutationGeneric({
  args: { channel: v.string(), body: v.string() },
  handler: async (ctx, { channel, body }) => {
    if (body.length === 0) throw new ConvexError({ code: "EMPTY", message: "Message is empty." });
    if (body === "crash") throw new Error("plain failure");
    console.log("sending", body);
    const identity = await ctx.auth.getUserIdentity();
    return await ctx.db.insert("messages", { channel, body, author: identity?.subject });
  },
});

export const sendLater = mutationGeneric({
  args: { channel: v.string(), body: v.string(), delayMs: v.number() },
  handler: async (ctx, args) => {
    await ctx.scheduler.runAfter(args.delayMs, anyApi.messages.insertInternal, {
      channel: args.channel,
      body: args.body,
    });
  },
});

export const insertInternal = internalMutationGeneric({
  args: { channel: v.string(), body: v.string() },
  handler: async (ctx, args) => {
    console.log("inserting", args.body);
    await ctx.db.insert("messages", args);
  },
});

export const sendViaAction = actionGeneric({
  args: { channel: v.string(), body: v.string() },
  handler: async (ctx, args) => {
    await ctx.runMutation(anyApi.messages.insertInternal, args);
    return "done";
  },
});

export const sendAndCount = mutationGeneric({
  args: { channel: v.string(), body: v.string() },
  handler: async (ctx, args) => {
    await ctx.db.insert("messages", args);
    const rows = await ctx.db
      .query("messages")
      .withIndex("by_channel", (q) => q.eq("channel", args.channel))
      .collect();
    return rows.length;
  },
});

export const move = mutationGeneric({
  args: { id: v.id("messages"), channel: v.string() },
  handler: async (ctx, { id, channel }) => {
    await ctx.db.patch(id, { channel });
  },
});
