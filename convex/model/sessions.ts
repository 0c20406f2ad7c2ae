// Ending an auth session (sign-out): its refresh tokens, then the session.
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

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
