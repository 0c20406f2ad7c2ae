/**
 * Who is online (replaces the spec's socket `onlineUsers`): the app sends a heartbeat every 30 s; a
 * scheduled check marks the user offline when no newer heartbeat arrived within OFFLINE_AFTER_MS.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { roleOf } from "./users";

export const HEARTBEAT_MS = 30_000;
export const OFFLINE_AFTER_MS = 70_000;
/** Heartbeats closer together than this (several tabs) do not write again. */
const MIN_WRITE_MS = 10_000;
const MAX_ONLINE = 1000;

/** Records a heartbeat; returns the lastSeen the offline check must match, or null when nothing was written. */
export async function heartbeat(
  ctx: MutationCtx,
  user: Doc<"users">,
  now: number,
): Promise<number | null> {
  const row = await ctx.db
    .query("presence")
    .withIndex("by_userId", (q) => q.eq("userId", user._id))
    .unique();
  if (row !== null && row.online && now - row.lastSeen < MIN_WRITE_MS) return null;
  const role = roleOf(user);
  if (row === null)
    await ctx.db.insert("presence", { userId: user._id, role, online: true, lastSeen: now });
  else await ctx.db.patch("presence", row._id, { role, online: true, lastSeen: now });
  return now;
}

/** The scheduled check: offline unless a heartbeat came after `lastSeen`. */
export async function expire(
  ctx: MutationCtx,
  userId: Id<"users">,
  lastSeen: number,
): Promise<void> {
  const row = await ctx.db
    .query("presence")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
  if (row !== null && row.online && row.lastSeen <= lastSeen) {
    await ctx.db.patch("presence", row._id, { online: false });
  }
}

export async function onlineRows(ctx: QueryCtx) {
  return await ctx.db
    .query("presence")
    .withIndex("by_online", (q) => q.eq("online", true))
    .take(MAX_ONLINE);
}
