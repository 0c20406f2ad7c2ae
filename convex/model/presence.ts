/**
 * Who is online: the one definition every page uses (the admin grid and dashboard, and the public
 * map, which shows a professional only while they are online). The app sends a heartbeat every 30 s;
 * a user goes offline at sign-out, at suspension, or when no newer heartbeat arrived within
 * OFFLINE_AFTER_MS. A professional going offline leaves the map with it.
 */
import type { Id } from "../_generated/dataModel";
import type { Role } from "../validators";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { syncSpot } from "./dispatchSpots";
import { removeMarker } from "./mapMarkers";
import { professionalOfUser } from "./professionalOfUser";

export const HEARTBEAT_MS = 30_000;
export const OFFLINE_AFTER_MS = 70_000;
/** Heartbeats closer together than this (several tabs) do not write again. */
const MIN_WRITE_MS = 10_000;
const MAX_ONLINE = 1000;

/** Records a heartbeat; returns the lastSeen the offline check must match, or null when nothing was written. */
export async function heartbeat(
  ctx: MutationCtx,
  userId: Id<"users">,
  role: Role,
  now: number,
): Promise<number | null> {
  const row = await presenceOf(ctx, userId);
  if (row !== null && row.online && now - row.lastSeen < MIN_WRITE_MS) return null;
  if (row === null) await ctx.db.insert("presence", { userId, role, online: true, lastSeen: now });
  else await ctx.db.patch("presence", row._id, { role, online: true, lastSeen: now });
  // coming online makes a professional dispatchable again (model/dispatchSpots.ts)
  if (role === "professional" && !row?.online) {
    const pro = await professionalOfUser(ctx, userId);
    if (pro !== null) await syncSpot(ctx, pro._id);
  }
  return now;
}

async function presenceOf(ctx: QueryCtx, userId: Id<"users">) {
  return await ctx.db
    .query("presence")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}

/** Whether the user was online and has gone offline since (signed out, timed out or suspended). */
export async function wentOffline(ctx: QueryCtx, userId: Id<"users">): Promise<boolean> {
  const row = await presenceOf(ctx, userId);
  return row !== null && !row.online;
}

/** Whether the user is online now. */
export async function isOnline(ctx: QueryCtx, userId: Id<"users">): Promise<boolean> {
  return (await presenceOf(ctx, userId))?.online ?? false;
}

/**
 * Offline at once (sign-out, suspension): a professional's position and map marker go with it, so
 * no page shows them online; they reappear when they next share their position.
 */
export async function goOffline(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const row = await presenceOf(ctx, userId);
  if (row !== null && row.online) await ctx.db.patch("presence", row._id, { online: false });
  const pro = await professionalOfUser(ctx, userId);
  if (pro === null) return;
  const live = await ctx.db
    .query("liveLocations")
    .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
    .unique();
  if (live !== null) await ctx.db.delete("liveLocations", live._id);
  await removeMarker(ctx, pro._id);
}

/** The scheduled check: offline unless a heartbeat came after `lastSeen`. */
export async function expire(
  ctx: MutationCtx,
  userId: Id<"users">,
  lastSeen: number,
): Promise<void> {
  const row = await presenceOf(ctx, userId);
  if (row !== null && row.online && row.lastSeen <= lastSeen) await goOffline(ctx, userId);
}

export async function onlineRows(ctx: QueryCtx) {
  return await ctx.db
    .query("presence")
    .withIndex("by_online", (q) => q.eq("online", true))
    .take(MAX_ONLINE);
}
