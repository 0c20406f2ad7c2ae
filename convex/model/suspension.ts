/**
 * Suspending and restoring accounts (admins only, checked by the caller's builder). A suspended user
 * is signed out everywhere at once (their auth sessions and refresh tokens are deleted, so every
 * subscription of theirs re-runs as a visitor's), cannot sign in again (auth.ts), and their listing
 * is gone: search, profile, map and booking all leave out a professional whose user is suspended.
 *
 * Their open bookings are cancelled by GharSewa with the suspension named as the reason, and both
 * parties are told: a customer should not wait for a professional who cannot come, and a
 * professional should not travel to someone the service has stopped. Restoring does not reopen them.
 * Their "nearest available now" offers and search end too (model/dispatch.ts leaveDispatch).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { OPEN_STATUSES } from "../rules/bookingLifecycle";
import { SUSPENSION_REASON } from "../rules/notificationText";
import { lengthProblem, MODERATION_FIELDS } from "../rules/moderation";
import { transition } from "./bookings";
import { leaveDispatch } from "./dispatch";
import { syncSpot } from "./dispatchSpots";
import { fail } from "./errors";
import { professionalOfUser } from "./professionalOfUser";
import { goOffline } from "./presence";
import { endAuthSession } from "./sessions";

/** Sessions ended, and open bookings cancelled per status, in one suspension (both are few). */
const SESSION_BATCH = 100;
const OPEN_BATCH = 100;
const HISTORY_SHOWN = 50;

function checkedReason(reason: string): string {
  const problem = lengthProblem(reason, MODERATION_FIELDS.accountReason, "a reason");
  if (problem !== undefined) fail(problem.code, problem.message);
  return reason.trim();
}

async function requireUser(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"users">> {
  const user = await ctx.db.get("users", userId);
  if (user === null) fail("NOT_FOUND", "This user was not found.");
  return user;
}

/** Ends every auth session of the user: their open tabs lose their identity at once. */
async function endAllSessions(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const sessions = await ctx.db
    .query("authSessions")
    .withIndex("userId", (q) => q.eq("userId", userId))
    .take(SESSION_BATCH);
  for (const session of sessions) await endAuthSession(ctx, session._id);
}

/** The bookings a suspension would cancel: the user's open ones, as customer or as professional. */
export async function openBookingsOf(
  ctx: QueryCtx,
  user: Doc<"users">,
): Promise<Doc<"bookings">[]> {
  const pro = user.role === "professional" ? await professionalOfUser(ctx, user._id) : null;
  const rows = await Promise.all(
    OPEN_STATUSES.map((status) =>
      pro !== null
        ? ctx.db
            .query("bookings")
            .withIndex("by_professionalId_and_status", (q) =>
              q.eq("professionalId", pro._id).eq("status", status),
            )
            .take(OPEN_BATCH)
        : ctx.db
            .query("bookings")
            .withIndex("by_customerId_and_status", (q) =>
              q.eq("customerId", user._id).eq("status", status),
            )
            .take(OPEN_BATCH),
    ),
  );
  return rows.flat();
}

export async function suspend(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: { userId: Id<"users">; reason: string },
): Promise<void> {
  const reason = checkedReason(args.reason);
  const user = await requireUser(ctx, args.userId);
  if (user._id === admin._id) fail("CANNOT_SUSPEND_SELF", "You cannot suspend your own account.");
  if (user.suspended !== undefined) return; // a retry: already done
  const now = Date.now();
  await ctx.db.patch("users", user._id, { suspended: { at: now, by: admin._id, reason } });
  await ctx.db.insert("accountEvents", {
    userId: user._id,
    adminId: admin._id,
    action: "suspended",
    reason,
  });
  await endAllSessions(ctx, user._id);
  // their devices stop ringing (the cancellations below would alert them)
  const devices = await ctx.db
    .query("pushSubscriptions")
    .withIndex("by_userId", (q) => q.eq("userId", user._id))
    .take(SESSION_BATCH);
  for (const device of devices) await ctx.db.delete("pushSubscriptions", device._id);
  // offline and off the map now; a restored professional reappears when they next share their position
  await goOffline(ctx, user._id);
  await leaveDispatch(ctx, user);
  for (const booking of await openBookingsOf(ctx, user)) {
    await transition(ctx, {
      bookingId: booking._id,
      to: "cancelled",
      actor: "admin",
      actorUser: admin,
      reason: SUSPENSION_REASON,
    });
  }
}

export async function restore(
  ctx: MutationCtx,
  admin: Doc<"users">,
  args: { userId: Id<"users">; reason: string },
): Promise<void> {
  const reason = checkedReason(args.reason);
  const user = await requireUser(ctx, args.userId);
  if (user.suspended === undefined) return; // a retry: already done
  await ctx.db.patch("users", user._id, { suspended: undefined });
  await ctx.db.insert("accountEvents", {
    userId: user._id,
    adminId: admin._id,
    action: "restored",
    reason,
  });
  // dispatchable again from home until they next share their position
  const pro = user.role === "professional" ? await professionalOfUser(ctx, user._id) : null;
  if (pro !== null) await syncSpot(ctx, pro._id);
}

/** The account's suspensions and restorations, newest first, with the acting admin's name. */
export async function history(ctx: QueryCtx, userId: Id<"users">) {
  const rows = await ctx.db
    .query("accountEvents")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .order("desc")
    .take(HISTORY_SHOWN);
  return await Promise.all(
    rows.map(async (r) => ({
      action: r.action,
      reason: r.reason,
      at: r._creationTime,
      adminName: (await ctx.db.get("users", r.adminId))?.name ?? "Admin",
    })),
  );
}
