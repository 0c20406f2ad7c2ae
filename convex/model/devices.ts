/**
 * The account's signed-in devices: one auth session each (@convex-dev/auth's `authSessions`, with
 * its refresh tokens in `authRefreshTokens`), described by the browser that holds it
 * (`sessionDevices`, written by the app as it opens). Signing a device out ends its session and
 * refresh tokens (sessions.ts endAuthSession, as the library's own sign-out does): its tab loses its
 * identity at once and its refresh token is refused.
 */
import { getAuthSessionId } from "@convex-dev/auth/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { USER_AGENT_MAX, deviceOf, type DeviceKind } from "../rules/userAgent";
import { fail } from "./errors";
import { endAuthSession } from "./sessions";

/** Sessions listed per account: more than anyone signs in on; older ones still end with "all others". */
const SESSIONS_LISTED = 50;
/** A device's "last seen" moves at most this often (each move re-runs its account's devices list). */
export const SEEN_EVERY_MS = 60_000;

export type Device = DeviceKind & {
  sessionId: Id<"authSessions">;
  firstSeen: number;
  lastSeen: number;
  current: boolean;
};

/** The viewer's own session (getViewer has checked that it exists). */
export async function currentSession(ctx: QueryCtx): Promise<Id<"authSessions">> {
  const raw = await getAuthSessionId(ctx);
  const sessionId = raw === null ? null : ctx.db.normalizeId("authSessions", raw);
  if (sessionId === null) fail("UNAUTHENTICATED", "Please sign in to continue.");
  return sessionId;
}

/** This session's browser was seen now: its row is written, or its "last seen" moved. */
export async function deviceSeen(
  ctx: MutationCtx,
  userId: Id<"users">,
  sessionId: Id<"authSessions">,
  rawUserAgent: string,
  now: number,
): Promise<void> {
  const userAgent = rawUserAgent.slice(0, USER_AGENT_MAX);
  const row = await ctx.db
    .query("sessionDevices")
    .withIndex("by_sessionId", (q) => q.eq("sessionId", sessionId))
    .unique();
  if (row === null) {
    await ctx.db.insert("sessionDevices", { sessionId, userId, userAgent, lastSeenAt: now });
  } else if (row.userAgent !== userAgent || now - row.lastSeenAt >= SEEN_EVERY_MS) {
    await ctx.db.patch("sessionDevices", row._id, { userAgent, lastSeenAt: now });
  }
}

async function sessionsOf(ctx: QueryCtx, userId: Id<"users">, limit = SESSIONS_LISTED) {
  return await ctx.db
    .query("authSessions")
    .withIndex("userId", (q) => q.eq("userId", userId))
    .take(limit);
}

/** The account's sessions, this one first, then by when each was last seen. */
export async function devicesOf(
  ctx: QueryCtx,
  userId: Id<"users">,
  current: Id<"authSessions">,
): Promise<Device[]> {
  const sessions = await sessionsOf(ctx, userId);
  const rows = await Promise.all(
    sessions.map((s) =>
      ctx.db
        .query("sessionDevices")
        .withIndex("by_sessionId", (q) => q.eq("sessionId", s._id))
        .unique(),
    ),
  );
  const devices = sessions.map((session: Doc<"authSessions">, i): Device => {
    const row = rows[i];
    return {
      sessionId: session._id,
      ...(row ? deviceOf(row.userAgent) : { browser: null, system: null }),
      firstSeen: session._creationTime,
      lastSeen: row?.lastSeenAt ?? session._creationTime,
      current: session._id === current,
    };
  });
  return devices.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeen - a.lastSeen);
}

/** Signs out one other device of the viewer's (this one signs out with the sign-out button). */
export async function signOutDevice(
  ctx: MutationCtx,
  userId: Id<"users">,
  current: Id<"authSessions">,
  sessionId: Id<"authSessions">,
): Promise<void> {
  if (sessionId === current)
    fail("INVALID_INPUT", "Use Logout to sign out of the device you are using.");
  const session = await ctx.db.get("authSessions", sessionId);
  // someone else's session answers as one already gone: nothing to tell it apart
  if (session === null || session.userId !== userId) return;
  await endAuthSession(ctx, sessionId);
}

/** Signs out every device of the viewer's but this one. */
export async function signOutOtherDevices(
  ctx: MutationCtx,
  userId: Id<"users">,
  current: Id<"authSessions">,
): Promise<void> {
  for (const session of await sessionsOf(ctx, userId, 500))
    if (session._id !== current) await endAuthSession(ctx, session._id);
}
