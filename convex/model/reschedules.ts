/**
 * Moving a booking to another time (rules/reschedule.ts): the customer proposes one of the
 * professional's free start times, the professional accepts (the booking moves) or declines (it
 * stays); the customer may withdraw it first, and unanswered it lapses (a job scheduled at
 * proposalLapsesAt). Every proposal is kept with its outcome, and each step notifies the other side.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import {
  proposalLapsed,
  proposalLapsesAt,
  proposalRefusal,
  proposalsLeft,
  RESCHEDULABLE,
  RESCHEDULE,
  rescheduleClosesAt,
  type RescheduleStatus,
} from "../rules/reschedule";
import { BOOKING_FIELDS } from "../rules/bookingFields";
import { noticeText } from "../rules/notificationText";
import { clashWith, withinWorkingHours, DEFAULT_JOB_MINUTES } from "../rules/schedule";
import { fail } from "./errors";
import { freeSlotsFor, nextFreeSlots, takenTimes } from "./slots";
import { notify } from "./notifications";

const NOT_FOUND = "This booking was not found.";

/** A booking's proposals, oldest first (at most RESCHEDULE.maxPerBooking exist). */
function proposalsOf(ctx: QueryCtx, bookingId: Id<"bookings">) {
  return ctx.db
    .query("reschedules")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .take(RESCHEDULE.maxPerBooking);
}

/** The proposal waiting for an answer, while the booking may still move. */
function pendingOf(booking: Doc<"bookings">, proposals: readonly Doc<"reschedules">[]) {
  if (!RESCHEDULABLE.includes(booking.status)) return null;
  return proposals.find((r) => r.status === "proposed") ?? null;
}

async function customersBooking(ctx: QueryCtx, customer: Doc<"users">, bookingId: Id<"bookings">) {
  const booking = await ctx.db.get("bookings", bookingId);
  // someone else's booking answers as a missing one
  if (booking === null || booking.customerId !== customer._id) fail("NOT_FOUND", NOT_FOUND);
  return booking;
}

async function professionalsBooking(
  ctx: QueryCtx,
  professional: Doc<"users">,
  bookingId: Id<"bookings">,
) {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || booking.professionalUserId !== professional._id)
    fail("NOT_FOUND", NOT_FOUND);
  return booking;
}

function refuseProposal(code: NonNullable<ReturnType<typeof proposalRefusal>>): never {
  switch (code) {
    case "RESCHEDULE_CLOSED":
      return fail(
        "RESCHEDULE_CLOSED",
        `This booking can no longer be moved: a new time may be proposed until ${RESCHEDULE.closesBeforeMs / 3_600_000} hours before the booked time, and before the professional is on the way.`,
      );
    case "RESCHEDULE_PENDING":
      return fail(
        "RESCHEDULE_PENDING",
        "You already proposed a new time: wait for the professional's answer.",
      );
    case "RESCHEDULE_LIMIT":
      return fail(
        "RESCHEDULE_LIMIT",
        `A booking may be moved at most ${RESCHEDULE.maxPerBooking} times. Cancel it and book again instead.`,
      );
  }
}

/** The free start times the customer may move their booking to (the booking's own time left out). */
export async function freeSlotsToMove(
  ctx: QueryCtx,
  customer: Doc<"users">,
  args: { bookingId: Id<"bookings">; now: number },
) {
  const booking = await customersBooking(ctx, customer, args.bookingId);
  const jobMinutes = booking.jobMinutes ?? DEFAULT_JOB_MINUTES;
  const pro = await ctx.db.get("professionals", booking.professionalId);
  if (pro === null || !RESCHEDULABLE.includes(booking.status)) return { jobMinutes, slots: [] };
  const slots = await freeSlotsFor(ctx, pro, {
    now: args.now,
    jobMinutes,
    customerId: customer._id,
    except: booking._id,
  });
  return { jobMinutes, slots: slots.filter((s) => s !== booking.scheduledFor) };
}

type Notice = "proposed" | "accepted" | "declined" | "withdrawn" | "lapsed";

/** The customer's steps are told to the professional, the professional's and a lapse to the customer. */
async function tell(
  ctx: MutationCtx,
  booking: Doc<"bookings">,
  row: { from: number; to: number; reason?: string },
  kind: Notice,
  actor: Doc<"users"> | null,
) {
  const toProfessional = kind === "proposed" || kind === "withdrawn";
  const params = {
    actor: actor?.name ?? "",
    actorRole: toProfessional ? "customer" : "professional",
    services: booking.services.map((s) => s.name).join("\n"),
    from: String(row.from),
    to: String(row.to),
    ...(row.reason !== undefined ? { reason: row.reason } : {}),
  };
  // the English words kept on the row come from the catalogue the app words it in
  const { title, body } = noticeText("en", {
    kind: `reschedule.${kind}`,
    title: "",
    body: "",
    params,
  });
  await notify(ctx, {
    userId: toProfessional ? booking.professionalUserId : booking.customerId,
    kind: `reschedule.${kind}`,
    title,
    body,
    params,
    bookingId: booking._id,
  });
}

/** The customer proposes `to`, one of the professional's free start times. */
export async function propose(
  ctx: MutationCtx,
  customer: Doc<"users">,
  args: { bookingId: Id<"bookings">; to: number },
): Promise<Id<"reschedules">> {
  const booking = await customersBooking(ctx, customer, args.bookingId);
  const now = Date.now();
  const proposals = await proposalsOf(ctx, booking._id);
  const refusal = proposalRefusal({
    status: booking.status,
    scheduledFor: booking.scheduledFor,
    proposals: proposals.length,
    pending: pendingOf(booking, proposals) !== null,
    now,
  });
  if (refusal !== null) refuseProposal(refusal);
  if (!Number.isFinite(args.to) || args.to === booking.scheduledFor) {
    fail("INVALID_INPUT", "Choose a time other than the booked one.");
  }
  const pro = await ctx.db.get("professionals", booking.professionalId);
  if (pro === null) fail("NOT_FOUND", NOT_FOUND);
  const jobMinutes = booking.jobMinutes ?? DEFAULT_JOB_MINUTES;
  const free = await freeSlotsFor(ctx, pro, {
    now,
    jobMinutes,
    customerId: customer._id,
    except: booking._id,
  });
  if (!free.includes(args.to)) {
    fail(
      "SLOT_TAKEN",
      "The professional is not free at that time. Please choose one of their free times.",
      { next: free.filter((s) => s !== booking.scheduledFor).slice(0, 3) },
    );
  }
  const row = { from: booking.scheduledFor, to: args.to };
  const id = await ctx.db.insert("reschedules", {
    bookingId: booking._id,
    customerId: customer._id,
    professionalId: booking.professionalId,
    ...row,
    status: "proposed",
  });
  await ctx.scheduler.runAt(
    proposalLapsesAt(args.to, booking.scheduledFor),
    internal.reschedules.lapse,
    { rescheduleId: id },
  );
  await tell(ctx, booking, row, "proposed", customer);
  return id;
}

/** The customer takes back the proposal still waiting for an answer: the booking keeps its time. */
export async function withdraw(
  ctx: MutationCtx,
  customer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  const booking = await customersBooking(ctx, customer, bookingId);
  const pending = pendingOf(booking, await proposalsOf(ctx, booking._id));
  if (pending === null) {
    fail("RESCHEDULE_CLOSED", "No new time is waiting for an answer on this booking.");
  }
  await ctx.db.patch("reschedules", pending._id, { status: "withdrawn", answeredAt: Date.now() });
  await tell(ctx, booking, pending, "withdrawn", customer);
}

/**
 * Scheduled with each proposal at proposalLapsesAt: still unanswered, it lapses. The customer is told
 * while the booking could still move; one the trip or a cancellation overtook lapses quietly.
 */
export async function lapse(ctx: MutationCtx, rescheduleId: Id<"reschedules">): Promise<void> {
  const row = await ctx.db.get("reschedules", rescheduleId);
  if (row === null || row.status !== "proposed") return;
  const booking = await ctx.db.get("bookings", row.bookingId);
  const now = Date.now();
  if (booking !== null && !proposalLapsed(row, booking, now)) return;
  await ctx.db.patch("reschedules", row._id, { status: "lapsed", answeredAt: now });
  if (booking !== null && RESCHEDULABLE.includes(booking.status))
    await tell(ctx, booking, row, "lapsed", null);
}

/** The professional answers the waiting proposal: the booking moves, or keeps its time. */
export async function answer(
  ctx: MutationCtx,
  professional: Doc<"users">,
  args: { bookingId: Id<"bookings">; accept: boolean; reason?: string },
): Promise<void> {
  const booking = await professionalsBooking(ctx, professional, args.bookingId);
  const proposals = await proposalsOf(ctx, booking._id);
  const pending = pendingOf(booking, proposals);
  if (pending === null) {
    fail("RESCHEDULE_CLOSED", "There is no new time waiting for your answer on this booking.");
  }
  const now = Date.now();
  if (proposalLapsed(pending, booking, now)) {
    fail(
      "RESCHEDULE_LAPSED",
      "This proposal has lapsed: its time came, or the booking is too close to be moved.",
    );
  }
  const reason = args.reason?.trim() || undefined;
  if (reason !== undefined && reason.length > BOOKING_FIELDS.reason.max)
    fail("REASON_TOO_LONG", `The reason may be at most ${BOOKING_FIELDS.reason.max} characters.`);
  if (args.accept) {
    const jobMinutes = booking.jobMinutes ?? DEFAULT_JOB_MINUTES;
    const pro = await ctx.db.get("professionals", booking.professionalId);
    if (pending.to <= now) {
      fail(
        "SLOT_IN_PAST",
        "The proposed time has passed: decline it, and the customer may propose another.",
      );
    }
    const taken = clashWith(
      pending.to,
      jobMinutes,
      await takenTimes(
        ctx,
        booking.professionalId,
        { from: pending.to, to: pending.to + jobMinutes * 60_000 },
        { except: booking._id, activeOnly: true },
      ),
    );
    if (
      taken !== undefined ||
      (pro !== null && !withinWorkingHours(pending.to, pro.workingHours, jobMinutes))
    ) {
      const next =
        pro === null
          ? []
          : await nextFreeSlots(ctx, pro, {
              now,
              jobMinutes,
              customerId: booking.customerId,
              except: booking._id,
            });
      fail(
        "SLOT_TAKEN",
        "You have another job at the proposed time, or it is outside your working hours: decline it.",
        { next },
      );
    }
    await ctx.db.patch("bookings", booking._id, { scheduledFor: pending.to, updatedAt: now });
  }
  await ctx.db.patch("reschedules", pending._id, {
    status: args.accept ? "accepted" : "declined",
    answeredAt: now,
    ...(reason !== undefined ? { reason } : {}),
  });
  await tell(
    ctx,
    booking,
    { from: pending.from, to: pending.to, reason },
    args.accept ? "accepted" : "declined",
    professional,
  );
}

export type RescheduleView = {
  /** The proposal waiting for the professional's answer, and when it lapses unanswered. */
  pending: { from: number; to: number; at: number; lapsesAt: number } | null;
  history: {
    from: number;
    to: number;
    status: RescheduleStatus;
    at: number;
    reason: string | null;
  }[];
  /** Proposals the customer may still make; 0 once none may be made. */
  left: number;
  /** The last moment a proposal may be made. */
  closesAt: number;
};

/** What a booking card shows of the booking's moves, to either side, and the admin. */
export async function rescheduleView(
  ctx: QueryCtx,
  booking: Doc<"bookings">,
): Promise<RescheduleView> {
  const proposals = await proposalsOf(ctx, booking._id);
  const pending = pendingOf(booking, proposals);
  return {
    pending:
      pending === null
        ? null
        : {
            from: pending.from,
            to: pending.to,
            at: pending._creationTime,
            lapsesAt: proposalLapsesAt(pending.to, booking.scheduledFor),
          },
    history: proposals
      .filter((r) => r._id !== pending?._id)
      .map((r) => ({
        from: r.from,
        to: r.to,
        // one the trip or a cancellation overtook lapsed, though its scheduled lapse is yet to come
        status: r.status === "proposed" ? "lapsed" : r.status,
        at: r.answeredAt ?? r._creationTime,
        reason: r.reason ?? null,
      })),
    left: proposalsLeft(proposals.length),
    closesAt: rescheduleClosesAt(booking.scheduledFor),
  };
}
