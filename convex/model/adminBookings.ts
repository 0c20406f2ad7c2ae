/**
 * The admin's bookings view: every booking, newest first, filtered by status and by one of city,
 * professional or customer, each combination served by its own index (schema.ts bookings); and one
 * booking with its event log, who did what when.
 */
import type { PaginationOptions } from "convex/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import type { BookingStatus, CitySlug } from "../validators";
import { fail } from "./errors";
import { rescheduleView } from "./reschedules";
import { reviewForAdmin } from "./reviews";
import { loader, view } from "./bookings";

export type BookingFilters = {
  status?: BookingStatus;
  city?: CitySlug;
  professionalId?: Id<"professionals">;
  customerId?: Id<"users">;
};

/** Events shown per booking: a booking passes through at most eight statuses. */
const EVENTS_SHOWN = 50;
const REPORTS_SHOWN = 20;

function filteredQuery(ctx: QueryCtx, f: BookingFilters) {
  const { status, city, professionalId, customerId } = f;
  const bookings = ctx.db.query("bookings");
  if (professionalId !== undefined) {
    return status === undefined
      ? bookings.withIndex("by_professionalId", (q) => q.eq("professionalId", professionalId))
      : bookings.withIndex("by_professionalId_and_status", (q) =>
          q.eq("professionalId", professionalId).eq("status", status),
        );
  }
  if (customerId !== undefined) {
    return status === undefined
      ? bookings.withIndex("by_customerId", (q) => q.eq("customerId", customerId))
      : bookings.withIndex("by_customerId_and_status", (q) =>
          q.eq("customerId", customerId).eq("status", status),
        );
  }
  if (city !== undefined) {
    return status === undefined
      ? bookings.withIndex("by_city", (q) => q.eq("city", city))
      : bookings.withIndex("by_city_and_status", (q) => q.eq("city", city).eq("status", status));
  }
  return status === undefined
    ? bookings
    : bookings.withIndex("by_status", (q) => q.eq("status", status));
}

export async function page(
  ctx: QueryCtx,
  admin: Doc<"users">,
  filters: BookingFilters,
  paginationOpts: PaginationOptions,
) {
  const narrowing = [filters.city, filters.professionalId, filters.customerId].filter(
    (f) => f !== undefined,
  );
  if (narrowing.length > 1)
    fail("INVALID_INPUT", "Filter by one of city, professional or customer at a time.");
  const result = await filteredQuery(ctx, filters).order("desc").paginate(paginationOpts);
  const load = loader(ctx);
  return {
    ...result,
    page: await Promise.all(result.page.map((b) => view(ctx, load, b, admin))),
  };
}

/**
 * One booking for the admin: what the parties see, the event log in order, its time changes, its
 * review and reports.
 */
export async function detail(ctx: QueryCtx, admin: Doc<"users">, bookingId: Id<"bookings">) {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null) return null;
  const load = loader(ctx);
  const [events, review, reports] = await Promise.all([
    ctx.db
      .query("bookingEvents")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
      .take(EVENTS_SHOWN),
    ctx.db
      .query("reviews")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
      .first(),
    ctx.db
      .query("reports")
      .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
      .order("desc")
      .take(REPORTS_SHOWN),
  ]);
  return {
    ...(await view(ctx, load, booking, admin)),
    professionalUserId: booking.professionalUserId,
    reschedule: await rescheduleView(ctx, booking),
    events: await Promise.all(
      events.map(async (e) => {
        const actor = e.actorId === undefined ? null : await load.user(e.actorId);
        return {
          _id: e._id,
          at: e._creationTime,
          from: e.from ?? null,
          to: e.to,
          reason: e.reason ?? null,
          actor:
            e.actorId === undefined
              ? null
              : { _id: e.actorId, name: actor?.name ?? "", role: actor?.role ?? null },
        };
      }),
    ),
    review: review === null ? null : reviewForAdmin(review),
    reports: reports.map((r) => ({
      _id: r._id,
      status: r.status,
      category: r.category,
      at: r._creationTime,
    })),
  };
}
