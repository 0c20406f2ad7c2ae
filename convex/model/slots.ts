/**
 * Free start times and clashes from the stored bookings: reads the professional's bookings around a
 * time through one index range and hands them to the rules in rules/schedule.ts.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { ACTIVE_STATUSES } from "../rules/bookingLifecycle";
import { bookability } from "../rules/bookability";
import {
  busyOf,
  freeSlots,
  jobMinutesOf,
  LONGEST_JOB_MS,
  SLOT_DAYS,
  type Busy,
} from "../rules/schedule";
import { specialtyCategory } from "./catalog";
import { fail } from "./errors";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Bookings read per range at most; beyond it the rest of the range counts as taken. */
const MAX_ROWS = 1000;
/** Services a booking may hold (bookings:create refuses more). */
export const MAX_SERVICES_PER_BOOKING = 10;
/** How many free start times a SLOT_TAKEN refusal proposes instead. */
const NEXT_FREE = 3;

/**
 * The professional's times taken in [from, to): accepted and running jobs, and requests of other
 * customers than `customerId` (a request holds its time until it is answered, expires or is
 * cancelled; a customer's own requests do not stand in their own way). `except` leaves one booking out.
 */
export async function takenTimes(
  ctx: QueryCtx,
  professionalId: Id<"professionals">,
  range: { from: number; to: number },
  who: { customerId?: Id<"users">; except?: Id<"bookings">; activeOnly?: boolean } = {},
): Promise<Busy[]> {
  const rows = await ctx.db
    .query("bookings")
    .withIndex("by_professionalId_and_scheduledFor", (q) =>
      q
        .eq("professionalId", professionalId)
        .gt("scheduledFor", range.from - LONGEST_JOB_MS)
        .lt("scheduledFor", range.to),
    )
    .take(MAX_ROWS);
  const holds = (b: Doc<"bookings">) =>
    b._id !== who.except &&
    (ACTIVE_STATUSES.includes(b.status) ||
      (!who.activeOnly && b.status === "requested" && b.customerId !== who.customerId));
  const taken = rows.filter(holds).map((b) => busyOf(b.scheduledFor, b.jobMinutes));
  if (rows.length === MAX_ROWS) {
    taken.push({ start: rows[rows.length - 1].scheduledFor, end: range.to });
  }
  return taken;
}

/** The job length of a booking of `serviceIds` (none yet: the professional's category's). */
export async function jobMinutesFor(
  ctx: QueryCtx,
  pro: Doc<"professionals">,
  serviceIds: readonly Id<"services">[],
): Promise<number> {
  if (serviceIds.length === 0)
    return jobMinutesOf([{ category: specialtyCategory(pro.specialty) }]);
  if (serviceIds.length > MAX_SERVICES_PER_BOOKING) {
    fail("TOO_MANY_SERVICES", `A booking may hold at most ${MAX_SERVICES_PER_BOOKING} services.`);
  }
  const services = await Promise.all(serviceIds.map((id) => ctx.db.get("services", id)));
  return jobMinutesOf(
    services.map((s) => ({
      category: s?.category ?? specialtyCategory(pro.specialty),
      jobMinutes: s?.jobMinutes,
    })),
  );
}

/** Free start times over the next SLOT_DAYS for `customerId`, at most `limit`. */
export async function freeSlotsFor(
  ctx: QueryCtx,
  pro: Doc<"professionals">,
  args: {
    now: number;
    jobMinutes: number;
    customerId: Id<"users">;
    except?: Id<"bookings">;
    limit?: number;
  },
): Promise<number[]> {
  const taken = await takenTimes(
    ctx,
    pro._id,
    { from: args.now, to: args.now + (SLOT_DAYS + 1) * DAY_MS },
    { customerId: args.customerId, except: args.except },
  );
  return freeSlots({
    now: args.now,
    hours: pro.workingHours,
    busy: taken,
    jobMinutes: args.jobMinutes,
    limit: args.limit,
  });
}

/** The next few free start times, for a refusal that proposes them. */
export function nextFreeSlots(
  ctx: QueryCtx,
  pro: Doc<"professionals">,
  args: { now: number; jobMinutes: number; customerId: Id<"users">; except?: Id<"bookings"> },
): Promise<number[]> {
  return freeSlotsFor(ctx, pro, { ...args, limit: NEXT_FREE });
}

/**
 * What the booking dialog offers: the job length and free start times from `now` (the caller's
 * clock, rounded; the server checks the time again at booking), or why the professional cannot be
 * booked.
 */
export async function slotsView(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  args: { professionalId: Id<"professionals">; serviceIds: Id<"services">[]; now: number },
) {
  const pro = await ctx.db.get("professionals", args.professionalId);
  const proUser = pro === null ? null : await ctx.db.get("users", pro.userId);
  if (pro === null || proUser === null || proUser.suspended !== undefined) {
    fail("NOT_FOUND", "This professional was not found.");
  }
  const jobMinutes = await jobMinutesFor(ctx, pro, [...new Set(args.serviceIds)]);
  const canBook = bookability({
    verified: pro.verification.status === "verified",
    onHold: pro.noShowHold !== undefined,
    available: pro.available,
  });
  if (!canBook.bookable) return { jobMinutes, slots: [] as number[], refusal: canBook.code };
  const slots = await freeSlotsFor(ctx, pro, { now: args.now, jobMinutes, customerId: viewer._id });
  return { jobMinutes, slots, refusal: null };
}
