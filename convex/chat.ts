import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internalAction, internalMutation, internalQuery } from "./_generated/server";
import { internal } from "./_generated/api";
import { adminMutation, userMutation, userQuery } from "./functions";
import * as Chat from "./model/chat";
import { assertImageBlob, releaseFile } from "./model/files";
import { quickReply } from "./validators";

/** One page of a booking's conversation, newest first; empty when it is not the viewer's to read. */
export const messages = userQuery({
  args: { bookingId: v.id("bookings"), paginationOpts: paginationOptsValidator },
  handler: async (ctx, { bookingId, paginationOpts }) =>
    await Chat.page(ctx, ctx.viewer, bookingId, paginationOpts),
});

/** The conversation's header: the other side, typing and read state, whether it takes messages. */
export const state = userQuery({
  args: { bookingId: v.id("bookings") },
  handler: async (ctx, { bookingId }) => await Chat.state(ctx, ctx.viewer, bookingId),
});

/** Unread messages per conversation of the viewer (the header and booking cards show them). */
export const unread = userQuery({
  args: {},
  returns: v.array(v.object({ bookingId: v.id("bookings"), unread: v.number() })),
  handler: async (ctx) => await Chat.unreadCounts(ctx, ctx.viewer),
});

/** Sends text, a quick reply or up to four photos (storage ids of the sender's own uploads). */
export const send = userMutation({
  args: {
    bookingId: v.id("bookings"),
    text: v.optional(v.string()),
    quickReply: v.optional(quickReply),
    photos: v.optional(v.array(v.string())),
  },
  returns: v.id("chatMessages"),
  handler: async (ctx, { bookingId, ...message }) =>
    await Chat.send(ctx, ctx.viewer, bookingId, message),
});

export const markRead = userMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Chat.markRead(ctx, ctx.viewer, bookingId);
    return null;
  },
});

/** "I am typing": the other side's app shows it for a few seconds after each call. */
export const typing = userMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Chat.typing(ctx, ctx.viewer, bookingId);
    return null;
  },
});

/** An admin opens a reported booking's conversation; the reading is recorded and shown to both parties. */
export const openAsAdmin = adminMutation({
  args: { bookingId: v.id("bookings") },
  returns: v.null(),
  handler: async (ctx, { bookingId }) => {
    await Chat.openAsAdmin(ctx, ctx.viewer, bookingId);
    return null;
  },
});

export const alertReader = internalMutation({
  args: { messageId: v.id("chatMessages"), readerId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { messageId, readerId }) => {
    await Chat.alertReader(ctx, messageId, readerId);
    return null;
  },
});

/** Reads a message's photos: one that is not an image is deleted and leaves the message. */
export const checkPhotos = internalAction({
  args: { messageId: v.id("chatMessages") },
  returns: v.null(),
  handler: async (ctx, { messageId }) => {
    const photos = await ctx.runQuery(internal.chat.photosOf, { messageId });
    for (const storageId of photos) {
      const blob = await ctx.storage.get(storageId);
      if (blob === null) continue;
      try {
        await assertImageBlob(blob, "A photo");
      } catch {
        await ctx.runMutation(internal.chat.dropPhoto, { messageId, storageId });
      }
    }
    return null;
  },
});

export const photosOf = internalQuery({
  args: { messageId: v.id("chatMessages") },
  returns: v.array(v.id("_storage")),
  handler: async (ctx, { messageId }) =>
    (await ctx.db.get("chatMessages", messageId))?.photos ?? [],
});

export const dropPhoto = internalMutation({
  args: { messageId: v.id("chatMessages"), storageId: v.id("_storage") },
  returns: v.null(),
  handler: async (ctx, { messageId, storageId }) => {
    await Chat.dropPhoto(ctx, messageId, storageId);
    await releaseFile(ctx, storageId);
    return null;
  },
});
