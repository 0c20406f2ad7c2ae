// Ending an auth session (sign-out): its refresh tokens, then the session.
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
  if ((await ctx.db.get("authSessions", sessionId)) !== null)
    await ctx.db.delete("authSessions", sessionId);
}
