import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { fail } from "./model/errors";

/** The badge counts up to this; the UI shows "99+" beyond. */
const MAX_UNREAD_COUNTED = 100;
const MARK_ALL_BATCH = 500;

export const list = userQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: async (ctx, { paginationOpts }) => {
    const page = await ctx.db
      .query("notifications")
      .withIndex("by_userId", (q) => q.eq("userId", ctx.viewer._id))
      .order("desc")
      .paginate(paginationOpts);
    return {
      ...page,
      page: page.page.map((n) => ({
        _id: n._id,
        _creationTime: n._creationTime,
        kind: n.kind,
        title: n.title,
        body: n.body,
        params: n.params ?? null,
        bookingId: n.bookingId ?? null,
        read: n.readAt !== undefined,
        readAt: n.readAt ?? null,
      })),
    };
  },
});

/** Unread notifications of the viewer, counted up to 100. */
export const unreadCount = userQuery({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const unread = await ctx.db
      .query("notifications")
      .withIndex("by_userId_and_readAt", (q) =>
        q.eq("userId", ctx.viewer._id).eq("readAt", undefined),
      )
      .take(MAX_UNREAD_COUNTED);
    return unread.length;
  },
});

/** Marks one notification (or, without an id, every unread one) as read. */
export const markRead = userMutation({
  args: { notificationId: v.optional(v.id("notifications")) },
  returns: v.null(),
  handler: async (ctx, { notificationId }) => {
    const now = Date.now();
    if (notificationId !== undefined) {
      const n = await ctx.db.get("notifications", notificationId);
      if (n === null || n.userId !== ctx.viewer._id) {
        fail("NOT_FOUND", "This notification was not found.");
      }
      if (n.readAt === undefined) await ctx.db.patch("notifications", n._id, { readAt: now });
      return null;
    }
    const unread = await ctx.db
      .query("notifications")
      .withIndex("by_userId_and_readAt", (q) =>
        q.eq("userId", ctx.viewer._id).eq("readAt", undefined),
      )
      .take(MARK_ALL_BATCH);
    for (const n of unread) await ctx.db.patch("notifications", n._id, { readAt: now });
    return null;
  },
});
