// Ending an auth session (sign-out): its refresh tokens, its device row, then the session.
import { getAuthSessionId } from "@convex-dev/auth/server";
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

/**
 * Who an action's auth token names. An action cannot read the database, so the mutations it runs
 * check that the session still exists and the user is in good standing, as getViewer does.
 */
export type Caller = { userId: Id<"users">; sessionId: Id<"authSessions"> };

/** Refresh tokens deleted per call (a session has few). */
const REFRESH_TOKEN_BATCH = 500;

export async function endAuthSession(
  ctx: MutationCtx,
  sessionId: Id<"authSessions">,
): Promise<void> {
  const tokens = await ctx.db
    .query("authRefreshTokens")
    .withIndex("sessionId", (q) => q.eq("sessionId", sessionId))
    .take(REFRESH_TOKEN_BATCH);
  for (const token of tokens) await ctx.db.delete("authRefreshTokens", token._id);
  await forgetDevice(ctx, sessionId);
  if ((await ctx.db.get("authSessions", sessionId)) !== null)
    await ctx.db.delete("authSessions", sessionId);
}

/** The device row of a session (model/devices.ts), once the session ends. */
export async function forgetDevice(ctx: MutationCtx, sessionId: Id<"authSessions">) {
  const device = await ctx.db
    .query("sessionDevices")
    .withIndex("by_sessionId", (q) => q.eq("sessionId", sessionId))
    .unique();
  if (device !== null) await ctx.db.delete("sessionDevices", device._id);
}

/** After @convex-dev/auth's own sign-out (auth:signOut) ended the caller's session. */
export async function forgetSignedOutDevice(ctx: MutationCtx) {
  const raw = await getAuthSessionId(ctx);
  const sessionId = raw === null ? null : ctx.db.normalizeId("authSessions", raw);
  if (sessionId !== null && (await ctx.db.get("authSessions", sessionId)) === null)
    await forgetDevice(ctx, sessionId);
}
