// What the app keeps about one person: the export they may ask for, and what deleting the account removes.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { transition } from "./bookings";
import { releaseFile, urlOf } from "./files";
import { removeMarker } from "./mapMarkers";
import { leaveOffers } from "./dispatch";
import { syncSpot } from "./dispatchSpots";
import { professionalOfUser } from "./professionalOfUser";
import { fail } from "./errors";
import { endAuthSession } from "./sessions";
import { forgetEnrolment } from "./twoFactor";
import { forgetSetupLinks } from "./adminSetup";
import { ACTIVE_STATUSES, OPEN_STATUSES } from "../rules/bookingLifecycle";

const EXPORT_LIMIT = 1000;
const PURGE_BATCH = 500;
const OPEN_SCAN = 500;

/** Everything stored about one user, bounded per table. */
export async function exportUserData(ctx: QueryCtx, user: Doc<"users">) {
  const professional = await professionalOfUser(ctx, user._id);
  const [asCustomer, asProfessional, notifications, presence, messages] = await Promise.all([
    ctx.db
      .query("bookings")
      .withIndex("by_customerId", (q) => q.eq("customerId", user._id))
      .order("desc")
      .take(EXPORT_LIMIT),
    professional === null
      ? Promise.resolve([])
      : ctx.db
          .query("bookings")
          .withIndex("by_professionalId", (q) => q.eq("professionalId", professional._id))
          .order("desc")
          .take(EXPORT_LIMIT),
    ctx.db
      .query("notifications")
      .withIndex("by_userId", (q) => q.eq("userId", user._id))
      .order("desc")
      .take(EXPORT_LIMIT),
    ctx.db
      .query("presence")
      .withIndex("by_userId", (q) => q.eq("userId", user._id))
      .unique(),
    ctx.db
      .query("chatMessages")
      .withIndex("by_senderId", (q) => q.eq("senderId", user._id))
      .order("desc")
      .take(EXPORT_LIMIT),
  ]);
  const reviewsWritten = (
    await Promise.all(
      asCustomer.map((b) =>
        ctx.db
          .query("reviews")
          .withIndex("by_bookingId", (q) => q.eq("bookingId", b._id))
          .unique(),
      ),
    )
  ).filter((r) => r !== null);
  const { photo, ...account } = user;
  return {
    account: { ...account, photoUrl: await urlOf(ctx, photo) },
    professional:
      professional === null
        ? null
        : {
            ...professional,
            documents: {
              citizenshipFront: await urlOf(ctx, professional.documents.citizenshipFront),
              citizenshipBack: await urlOf(ctx, professional.documents.citizenshipBack),
              trainingCertificate: await urlOf(ctx, professional.documents.trainingCertificate),
            },
          },
    bookingsAsCustomer: asCustomer,
    bookingsAsProfessional: asProfessional,
    reviewsWritten,
    messagesSent: await Promise.all(
      messages.map(async ({ photos, ...message }) => ({
        ...message,
        photoUrls: await Promise.all((photos ?? []).map((id) => urlOf(ctx, id))),
      })),
    ),
    notifications,
    presence,
  };
}

/** Removes the account and everything only it owns, except notifications (see purgeNotifications). */
export async function deleteAccountData(ctx: MutationCtx, user: Doc<"users">): Promise<void> {
  if (user.role === "admin") {
    const admins = await ctx.db
      .query("users")
      .withIndex("by_role", (q) => q.eq("role", "admin"))
      .take(2);
    if (admins.length < 2) fail("LAST_ADMIN", "The last admin account cannot be deleted.");
  }
  const professional = await professionalOfUser(ctx, user._id);

  const asCustomer = await ctx.db
    .query("bookings")
    .withIndex("by_customerId", (q) => q.eq("customerId", user._id))
    .order("desc")
    .take(OPEN_SCAN);
  const proOpen =
    professional === null
      ? []
      : await Promise.all(
          OPEN_STATUSES.map((status) =>
            ctx.db
              .query("bookings")
              .withIndex("by_professionalId_and_status", (q) =>
                q.eq("professionalId", professional._id).eq("status", status),
              )
              .take(OPEN_SCAN),
          ),
        ).then((lists) => lists.flat());
  if ([...asCustomer, ...proOpen].some((b) => ACTIVE_STATUSES.includes(b.status))) {
    fail(
      "BOOKINGS_UNDER_WAY",
      "Finish or cancel your bookings under way before deleting your account.",
    );
  }
  for (const b of asCustomer.filter((b) => b.status === "requested")) {
    await transition(ctx, {
      bookingId: b._id,
      to: "cancelled",
      actor: "customer",
      actorUser: user,
      reason: "The customer closed their account.",
    });
  }
  for (const b of proOpen.filter((b) => b.status === "requested")) {
    await transition(ctx, {
      bookingId: b._id,
      to: "rejected",
      actor: "professional",
      actorUser: user,
      reason: "The professional closed their account.",
    });
  }

  if (professional !== null) {
    const live = await ctx.db
      .query("liveLocations")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", professional._id))
      .unique();
    if (live !== null) await ctx.db.delete("liveLocations", live._id);
    await removeMarker(ctx, professional._id);
    for (const id of Object.values(professional.documents)) await releaseFile(ctx, id);
    await ctx.db.delete("professionals", professional._id);
    await syncSpot(ctx, professional._id);
    await leaveOffers(ctx, user._id);
  }
  if (user.photo !== undefined) await releaseFile(ctx, user.photo);
  const presence = await ctx.db
    .query("presence")
    .withIndex("by_userId", (q) => q.eq("userId", user._id))
    .unique();
  if (presence !== null) await ctx.db.delete("presence", presence._id);

  const sessions = await ctx.db
    .query("authSessions")
    .withIndex("userId", (q) => q.eq("userId", user._id))
    .take(PURGE_BATCH);
  for (const session of sessions) await endAuthSession(ctx, session._id);
  const accounts = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id))
    .take(10);
  for (const account of accounts) {
    const limits = await ctx.db
      .query("authRateLimits")
      .withIndex("identifier", (q) => q.eq("identifier", account._id))
      .take(10);
    for (const limit of limits) await ctx.db.delete("authRateLimits", limit._id);
    await ctx.db.delete("authAccounts", account._id);
  }
  await forgetEnrolment(ctx, user._id);
  await forgetSetupLinks(ctx, user._id);
  await ctx.db.delete("users", user._id);
}

/** Deletes one batch of a deleted user's notifications; true when more remain. */
export async function purgeNotifications(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  const batch = await ctx.db
    .query("notifications")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(PURGE_BATCH);
  for (const n of batch) await ctx.db.delete("notifications", n._id);
  return batch.length === PURGE_BATCH;
}
