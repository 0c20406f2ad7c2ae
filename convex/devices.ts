import { getAuthSessionId, getAuthUserId } from "@convex-dev/auth/server";
import { v } from "convex/values";
import { setupPublicQuery, setupUserMutation, userMutation, userQuery } from "./functions";
import {
  currentSession,
  deviceSeen,
  devicesOf,
  signOutDevice,
  signOutOtherDevices,
} from "./model/devices";

/**
 * The session this device's token names, once it has ended: signed out from another device, by a
 * password change or reset. The device then drops its token (a JWT stays valid until it expires). Null
 * while the session lasts, for a visitor, and for a suspended account (its own notice says why).
 */
export const endedSession = setupPublicQuery({
  args: {},
  returns: v.union(v.null(), v.string()),
  handler: async (ctx) => {
    if (ctx.viewer !== null) return null;
    const [userId, sessionId] = await Promise.all([getAuthUserId(ctx), getAuthSessionId(ctx)]);
    if (userId === null || sessionId === null) return null;
    const user = await ctx.db.get("users", userId);
    return user?.suspended !== undefined ? null : sessionId;
  },
});

/** The app opened (or came back into view) on this device: its browser and "last seen". */
export const seen = setupUserMutation({
  args: { userAgent: v.string() },
  returns: v.null(),
  handler: async (ctx, { userAgent }) => {
    await deviceSeen(ctx, ctx.viewer._id, await currentSession(ctx), userAgent, Date.now());
    return null;
  },
});

/** The account's signed-in devices, live: this one first and marked. */
export const list = userQuery({
  args: {},
  returns: v.array(
    v.object({
      sessionId: v.id("authSessions"),
      browser: v.union(v.string(), v.null()),
      system: v.union(v.string(), v.null()),
      firstSeen: v.number(),
      lastSeen: v.number(),
      current: v.boolean(),
    }),
  ),
  handler: async (ctx) => await devicesOf(ctx, ctx.viewer._id, await currentSession(ctx)),
});

/** Signs out another device of the account: its tab loses its identity at once. */
export const signOut = userMutation({
  args: { sessionId: v.id("authSessions") },
  returns: v.null(),
  handler: async (ctx, { sessionId }) => {
    await signOutDevice(ctx, ctx.viewer._id, await currentSession(ctx), sessionId);
    return null;
  },
});

/** Signs out every device of the account but this one. */
export const signOutOthers = userMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await signOutOtherDevices(ctx, ctx.viewer._id, await currentSession(ctx));
    return null;
  },
});
