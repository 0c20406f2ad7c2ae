import { getAuthSessionId, getAuthUserId } from "@convex-dev/auth/server";
import { v } from "convex/values";
import { publicQuery } from "./functions";

/**
 * The session this device's token names, once it has ended: signed out from another device, by a
 * password change or reset. The device then drops its token (a JWT stays valid until it expires). Null
 * while the session lasts, for a visitor, and for a suspended account (its own notice says why).
 */
export const endedSession = publicQuery({
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
