import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import { professionalOfUser } from "./model/professionalOfUser";
import {
  history,
  openBookingsOf,
  restore as restoreAccount,
  suspend as suspendAccount,
} from "./model/suspension";
import { roleOf } from "./model/users";

/** Who is suspended or restored, and why (the reason is kept in the account's history). */
const accountChange = { userId: v.id("users"), reason: v.string() };

/**
 * Suspends an account with a reason: its sessions end at once, it cannot sign in, a professional's
 * listing disappears and its open bookings are cancelled (model/suspension.ts). Refused for the
 * admin's own account (CANNOT_SUSPEND_SELF) and for the last admin (LAST_ADMIN).
 */
export const suspend = adminMutation({
  args: accountChange,
  returns: v.null(),
  handler: async (ctx, args) => {
    await suspendAccount(ctx, ctx.viewer, args);
    return null;
  },
});

/** Lifts a suspension, with a reason: the user may sign in again and a professional is listed again. */
export const restore = adminMutation({
  args: accountChange,
  returns: v.null(),
  handler: async (ctx, args) => {
    await restoreAccount(ctx, ctx.viewer, args);
    return null;
  },
});

/** One account for the admin: who they are, whether suspended (by whom, when, why) and the history. */
export const get = adminQuery({
  args: { userId: v.id("users") },
  handler: async (ctx, { userId }) => {
    const user = await ctx.db.get("users", userId);
    if (user === null) return null;
    const [pro, events, suspendedBy, open] = await Promise.all([
      user.role === "professional" ? professionalOfUser(ctx, user._id) : null,
      history(ctx, user._id),
      user.suspended === undefined ? null : ctx.db.get("users", user.suspended.by),
      openBookingsOf(ctx, user),
    ]);
    return {
      _id: user._id,
      _creationTime: user._creationTime,
      name: user.name ?? "",
      email: user.email ?? "",
      phone: user.phone ?? "",
      role: roleOf(user),
      username: user.username ?? null,
      professionalId: pro?._id ?? null,
      isSelf: user._id === ctx.viewer._id,
      suspended:
        user.suspended === undefined
          ? null
          : {
              at: user.suspended.at,
              reason: user.suspended.reason,
              byName: suspendedBy?.name ?? "Admin",
            },
      history: events,
      /** What a suspension would cancel, so the admin sees it before confirming. */
      openBookings: await Promise.all(
        open.map(async (b) => {
          const other = await ctx.db.get(
            "users",
            b.customerId === user._id ? b.professionalUserId : b.customerId,
          );
          return {
            _id: b._id,
            status: b.status,
            scheduledFor: b.scheduledFor,
            services: b.services.map((s) => s.name),
            otherName: other?.name ?? "",
          };
        }),
      ),
    };
  },
});
