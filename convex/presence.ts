import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./_generated/server";
import { adminQuery, userMutation } from "./functions";
import {
  OFFLINE_AFTER_MS,
  expire,
  goOffline,
  heartbeat as recordHeartbeat,
  onlineRows,
} from "./model/presence";
import { roleOf } from "./model/users";

/** Call every 30 s while signed in. */
export const heartbeat = userMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const lastSeen = await recordHeartbeat(ctx, ctx.viewer._id, roleOf(ctx.viewer), Date.now());
    if (lastSeen !== null) {
      await ctx.scheduler.runAfter(OFFLINE_AFTER_MS, internal.presence.markOffline, {
        userId: ctx.viewer._id,
        lastSeen,
      });
    }
    return null;
  },
});

/** Signing out: offline now, not when the heartbeat times out (called while still signed in). */
export const leave = userMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await goOffline(ctx, ctx.viewer._id);
    return null;
  },
});

export const markOffline = internalMutation({
  args: { userId: v.id("users"), lastSeen: v.number() },
  returns: v.null(),
  handler: async (ctx, { userId, lastSeen }) => {
    await expire(ctx, userId, lastSeen);
    return null;
  },
});

/** Everyone online now (the spec's `onlineUsers`). */
export const online = adminQuery({
  args: {},
  handler: async (ctx) => {
    const rows = await onlineRows(ctx);
    const users = await Promise.all(rows.map((r) => ctx.db.get("users", r.userId)));
    return rows.flatMap((r, i) => {
      const user = users[i];
      return user === null ? [] : [{ userId: r.userId, name: user.name ?? "", role: r.role }];
    });
  },
});
