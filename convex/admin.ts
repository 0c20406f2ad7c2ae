import { createAccount } from "@convex-dev/auth/server";
import { ConvexError, v } from "convex/values";
import { paginationOptsValidator } from "convex/server";
import { internal } from "./_generated/api";
import type { Doc } from "./_generated/dataModel";
import type { ActionCtx, QueryCtx } from "./_generated/server";
import { internalAction, internalQuery } from "./_generated/server";
import { adminMutation, adminQuery } from "./functions";
import {
  adminRow,
  documentUrls,
  requireProfessional,
  verify as verifyProfessional,
} from "./model/professionals";
import { updateProfessional } from "./model/professionalUpdate";
import { fail } from "./model/errors";
import * as NoShows from "./model/noShows";
import { onlineRows } from "./model/presence";
import { refreshMarker } from "./model/mapMarkers";
import { professionalOfUser } from "./model/professionalOfUser";
import { updateSettings as saveSettings } from "./model/settings";
import { adminCredentials } from "./model/adminCredentials";
import { normalizeEmail, roleOf, userByUsername, usernameTaken } from "./model/users";
import {
  bookingStatus,
  city,
  specialty,
  verificationStatus,
  type BookingStatus,
  type CitySlug,
  type Role,
  type SpecialtySlug,
  type VerificationStatus,
  userFilter,
} from "./validators";

/** Rows per admin list, and the cap on each count in admin:stats (a count at the cap means "at least"). */
const LIST_LIMIT = 500;
const USERS_LIMIT = 100;
const BOOKING_COUNT_CAP = 100;
const USER_COUNT_CAP = 2000;
const STATUS_COUNT_CAP = 1000;

/**
 * The admin grid, a page at a time (newest first): the professionals matching the filters, through the
 * narrowest index that serves them; a filter the index does not serve is applied before the page is cut.
 */
export const technicians = adminQuery({
  args: {
    city: v.optional(city),
    specialty: v.optional(specialty),
    verification: v.optional(verificationStatus),
    paginationOpts: paginationOptsValidator,
  },
  handler: async (ctx, { paginationOpts, ...filters }) => {
    const page = await technicianQuery(ctx, filters).paginate(paginationOpts);
    const row = async (p: Doc<"professionals">) => ({
      ...(await adminRow(ctx, p)),
      noShows: await NoShows.strikeCount(ctx, p),
    });
    return { ...page, page: await Promise.all(page.page.map(row)) };
  },
});

/** The admin grid's rows for the REST API (GET /api/technicians, admins only: checked by the route). */
export const techniciansForApi = internalQuery({
  args: {},
  handler: async (ctx) => {
    const rows = await technicianQuery(ctx, {}).take(LIST_LIMIT);
    return await Promise.all(rows.map((p) => adminRow(ctx, p)));
  },
});

/** One professional with the document URLs (only admins and the owner ever get these). */
export const technician = adminQuery({
  args: { professionalId: v.id("professionals") },
  handler: async (ctx, { professionalId }) => {
    const pro = await ctx.db.get("professionals", professionalId);
    if (pro === null) return null;
    return { ...(await adminRow(ctx, pro)), documents: await documentUrls(ctx, pro) };
  },
});

async function bookingCount(ctx: QueryCtx, user: Doc<"users">): Promise<number> {
  if (user.role === "customer") {
    const rows = await ctx.db
      .query("bookings")
      .withIndex("by_customerId", (q) => q.eq("customerId", user._id))
      .take(BOOKING_COUNT_CAP);
    return rows.length;
  }
  if (user.role === "professional") {
    const pro = await professionalOfUser(ctx, user._id);
    if (pro === null) return 0;
    const rows = await ctx.db
      .query("bookings")
      .withIndex("by_professionalId", (q) => q.eq("professionalId", pro._id))
      .take(BOOKING_COUNT_CAP);
    return rows.length;
  }
  return 0;
}

/**
 * The newest users, or those whose name matches `search` (an email address is looked up exactly),
 * narrowed by `show` to one role or to the suspended accounts (the most recently suspended first when
 * there is no search). `bookingCount` stops counting at 100.
 */
export const users = adminQuery({
  args: { search: v.optional(v.string()), show: v.optional(userFilter) },
  handler: async (ctx, { search, show }) => {
    const text = search?.trim() ?? "";
    const role = show === "suspended" ? undefined : show;
    const suspendedOnly = show === "suspended";
    let found: Doc<"users">[];
    if (text.includes("@")) {
      const byEmail = await ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", normalizeEmail(text)))
        .take(USERS_LIMIT);
      found = byEmail.filter(
        (u) => (role === undefined || roleOf(u) === role) && (!suspendedOnly || u.suspended),
      );
    } else if (text !== "") {
      found = await ctx.db
        .query("users")
        .withSearchIndex("search_name", (q) =>
          role === undefined ? q.search("name", text) : q.search("name", text).eq("role", role),
        )
        // the search index filters by equality only: "is suspended" is a check on its matches
        // eslint-disable-next-line @convex-dev/no-filter-in-query
        .filter((q) => (suspendedOnly ? q.neq(q.field("suspended"), undefined) : true))
        .take(USERS_LIMIT);
    } else if (suspendedOnly) {
      found = await ctx.db
        .query("users")
        .withIndex("by_suspendedAt", (q) => q.gt("suspended.at", 0))
        .order("desc")
        .take(USERS_LIMIT);
    } else if (role !== undefined) {
      found = await ctx.db
        .query("users")
        .withIndex("by_role", (q) => q.eq("role", role))
        .order("desc")
        .take(USERS_LIMIT);
    } else {
      found = await ctx.db.query("users").order("desc").take(USERS_LIMIT);
    }
    return await Promise.all(
      found.map(async (u) => ({
        _id: u._id,
        name: u.name ?? "",
        email: u.email ?? "",
        phone: u.phone ?? "",
        role: roleOf(u),
        username: u.username,
        suspended: u.suspended !== undefined,
        bookingCount: await bookingCount(ctx, u),
        _creationTime: u._creationTime,
      })),
    );
  },
});

const ROLES: Role[] = ["customer", "professional", "admin"];
const STATUSES = bookingStatus.members.map((m) => m.value) as BookingStatus[];

/**
 * Counts for the admin dashboard. Each count stops at a cap (users 2000 per role, bookings 1000 per
 * status); `capped` says whether any did, so the UI can show "1000+".
 */
export const stats = adminQuery({
  args: {},
  handler: async (ctx) => {
    const [roleCounts, statusCounts, online, pending] = await Promise.all([
      Promise.all(
        ROLES.map(
          async (role) =>
            (
              await ctx.db
                .query("users")
                .withIndex("by_role", (q) => q.eq("role", role))
                .take(USER_COUNT_CAP)
            ).length,
        ),
      ),
      Promise.all(
        STATUSES.map(
          async (status) =>
            (
              await ctx.db
                .query("bookings")
                .withIndex("by_status", (q) => q.eq("status", status))
                .take(STATUS_COUNT_CAP)
            ).length,
        ),
      ),
      onlineRows(ctx),
      ctx.db
        .query("professionals")
        .withIndex("by_verification", (q) => q.eq("verification.status", "unverified"))
        .take(USER_COUNT_CAP),
    ]);
    return {
      users: Object.fromEntries(ROLES.map((r, i) => [r, roleCounts[i]])) as Record<Role, number>,
      bookings: Object.fromEntries(STATUSES.map((s, i) => [s, statusCounts[i]])) as Record<
        BookingStatus,
        number
      >,
      onlineProfessionals: online.filter((p) => p.role === "professional").length,
      pendingVerifications: pending.length,
      capped:
        roleCounts.some((n) => n >= USER_COUNT_CAP) ||
        statusCounts.some((n) => n >= STATUS_COUNT_CAP) ||
        pending.length >= USER_COUNT_CAP,
    };
  },
});

/** Verify or reject a professional's documents; the professional is notified. */
export const verify = adminMutation({
  args: {
    professionalId: v.id("professionals"),
    decision: v.union(v.literal("verified"), v.literal("rejected")),
    note: v.optional(v.string()),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await verifyProfessional(ctx, ctx.viewer, args);
    return null;
  },
});

export const setAvailability = adminMutation({
  args: { professionalId: v.id("professionals"), available: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { professionalId, available }) => {
    const pro = await requireProfessional(ctx, professionalId);
    await updateProfessional(ctx, pro, { available });
    await refreshMarker(ctx, pro._id);
    return null;
  },
});

export const updateSettings = adminMutation({
  args: {
    hotline: v.optional(v.string()),
    bannerText: v.optional(v.string()),
    bannerTextNe: v.optional(v.string()),
    bookingExpiryMinutes: v.optional(v.number()),
    commissionPercent: v.optional(v.number()),
    visitChargeNrs: v.optional(v.number()),
    noShowAfterMinutes: v.optional(v.number()),
    lateCancelFeeNrs: v.optional(v.number()),
    dispatchOfferSeconds: v.optional(v.number()),
    dispatchLimitMinutes: v.optional(v.number()),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await saveSettings(ctx, args);
    return null;
  },
});

/** Contact-form messages, newest first: the unhandled ones (the inbox) or all. */
export const messages = adminQuery({
  args: { unhandledOnly: v.optional(v.boolean()) },
  handler: async (ctx, { unhandledOnly }) => {
    const rows = unhandledOnly
      ? await ctx.db
          .query("contactMessages")
          .withIndex("by_handledAt", (q) => q.eq("handledAt", undefined))
          .order("desc")
          .take(LIST_LIMIT)
      : await ctx.db.query("contactMessages").order("desc").take(LIST_LIMIT);
    return rows.map((m) => ({
      _id: m._id,
      _creationTime: m._creationTime,
      name: m.name,
      email: m.email,
      phone: m.phone ?? null,
      message: m.message,
      userId: m.userId ?? null,
      handledAt: m.handledAt ?? null,
    }));
  },
});

/** Unhandled contact messages, counted up to UNREAD_CAP (the sidebar shows "99+" beyond). */
export const unreadMessages = adminQuery({
  args: {},
  returns: v.number(),
  handler: async (ctx) =>
    (
      await ctx.db
        .query("contactMessages")
        .withIndex("by_handledAt", (q) => q.eq("handledAt", undefined))
        .take(UNREAD_CAP)
    ).length,
});
const UNREAD_CAP = 100;

/** Marks a contact message handled (or back to unhandled). */
export const setMessageHandled = adminMutation({
  args: { messageId: v.id("contactMessages"), handled: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { messageId, handled }) => {
    const message = await ctx.db.get("contactMessages", messageId);
    if (message === null) fail("NOT_FOUND", "This message was not found.");
    await ctx.db.patch("contactMessages", messageId, {
      handledAt: handled ? Date.now() : undefined,
    });
    return null;
  },
});

const created = v.object({ username: v.string(), password: v.string(), setupToken: v.string() });

/** Creates the admin account and its first one-time setup link (model/adminSetup.ts). */
async function createAdminAccount(
  ctx: ActionCtx,
  args: { username: string; password?: string },
): Promise<{ username: string; password: string; setupToken: string }> {
  const { username, password } = adminCredentials(args);
  if (await ctx.runQuery(internal.admin.usernameInUse, { username })) throw usernameTaken();
  try {
    await createAccount(ctx, {
      provider: "admin",
      account: { id: username, secret: password },
      profile: { username, name: "Administrator" } as never, // read by createOrUpdateUser in auth.ts
    });
  } catch (error) {
    if (error instanceof ConvexError) throw error;
    if (error instanceof Error && /already exists/.test(error.message)) throw usernameTaken();
    throw error;
  }
  const setupToken: string | null = await ctx.runMutation(internal.adminSetup.issue, { username });
  if (setupToken === null) throw new Error(`admin ${username} vanished while being created`);
  return { username, password, setupToken };
}

/**
 * Creates an admin (`npm run create-admin -- <username>`) with a one-time setup link; a random
 * password is generated when none is given. Returns the credentials and the link's token; printing
 * them is the caller's business.
 */
export const createAdmin = internalAction({
  args: { username: v.string(), password: v.optional(v.string()) },
  returns: created,
  handler: async (ctx, args) => await createAdminAccount(ctx, args),
});

/**
 * For `seed:init`: on a database without admins, creates "admin" with a password nobody is shown and
 * returns its one-time setup link's token, once.
 */
export const ensureFirstAdmin = internalAction({
  args: {},
  returns: v.union(v.object({ username: v.string(), setupToken: v.string() }), v.null()),
  handler: async (ctx) => {
    if (await ctx.runQuery(internal.admin.hasAdmin, {})) return null;
    try {
      const { username, setupToken } = await createAdminAccount(ctx, { username: "admin" });
      return { username, setupToken };
    } catch (error) {
      // Another first start won the race.
      if (
        error instanceof ConvexError &&
        (error.data as { code?: string }).code === "USERNAME_TAKEN"
      )
        return null;
      throw error;
    }
  },
});

export const usernameInUse = internalQuery({
  args: { username: v.string() },
  returns: v.boolean(),
  handler: async (ctx, { username }) => (await userByUsername(ctx, username)) !== null,
});

export const hasAdmin = internalQuery({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) =>
    (await ctx.db
      .query("users")
      .withIndex("by_role", (q) => q.eq("role", "admin"))
      .first()) !== null,
});

/**
 * Professionals matching the filters through the narrowest index that serves them, newest first (within
 * each city when only the specialty is given); a filter the index leaves open is checked on each row.
 */
function technicianQuery(ctx: QueryCtx, { city, specialty, verification }: TechnicianFilters) {
  const base = ctx.db.query("professionals");
  const [indexed, open]: [typeof base | ReturnType<typeof base.withIndex>, TechnicianFilters] =
    specialty !== undefined
      ? [
          base.withIndex("by_specialty_and_city", (q) =>
            city === undefined
              ? q.eq("specialty", specialty)
              : q.eq("specialty", specialty).eq("city", city),
          ),
          { verification },
        ]
      : verification !== undefined
        ? [
            base.withIndex("by_verification", (q) => q.eq("verification.status", verification)),
            { city },
          ]
        : city !== undefined
          ? [base.withIndex("by_city", (q) => q.eq("city", city)), {}]
          : [base, {}];
  const ordered = indexed.order("desc");
  if (open.city === undefined && open.verification === undefined) return ordered;
  return ordered.filter((q) =>
    open.city !== undefined
      ? q.eq(q.field("city"), open.city)
      : q.eq(q.field("verification.status"), open.verification!),
  );
}

type TechnicianFilters = {
  city?: CitySlug;
  specialty?: SpecialtySlug;
  verification?: VerificationStatus;
};
