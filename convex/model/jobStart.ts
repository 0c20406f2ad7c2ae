/**
 * Starting an arrived job (rules/startCode.ts): the professional types the code its customer's screen
 * shows; after START_CODE.tries wrong codes the code is spent and the customer starts the job with a
 * tap. A wrong code is an answer, not a refusal: a thrown error would undo the try it counts.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { isStartCodeShape, startCodeSpent, START_CODE, triesLeft } from "../rules/startCode";
import { transition } from "./bookings";
import { fail } from "./errors";
import { startCodeOf } from "./startCodes";

export type StartAttempt = { started: true } | { started: false; triesLeft: number };

const NOT_FOUND = "This booking was not found.";

/** The booking's professional enters the start code. */
export async function startWithCode(
  ctx: MutationCtx,
  pro: Doc<"users">,
  bookingId: Id<"bookings">,
  input: string,
): Promise<StartAttempt> {
  const booking = await ctx.db.get("bookings", bookingId);
  // someone else's booking answers as a missing one
  if (booking === null || booking.professionalUserId !== pro._id) fail("NOT_FOUND", NOT_FOUND);
  // a retry of a start that went through
  if (booking.status === "in_progress") return { started: true };
  if (!isStartCodeShape(input)) {
    fail(
      "INVALID_INPUT",
      `The start code is ${START_CODE.digits} digits: ask the customer for the one on their screen.`,
    );
  }
  const row = booking.status === "arrived" ? await startCodeOf(ctx, bookingId) : null;
  if (row === null) {
    // not arrived yet (or closed): the lifecycle says why
    await transition(ctx, { bookingId, to: "in_progress", actor: "professional", actorUser: pro });
    return { started: true };
  }
  if (startCodeSpent(row.wrongTries)) {
    fail(
      "START_CODE_SPENT",
      `${START_CODE.tries} wrong codes were entered: the customer now starts the job by tapping "Start the job" on their booking.`,
    );
  }
  if (input !== row.code) {
    const wrong = row.wrongTries + 1;
    await ctx.db.patch("startCodes", row._id, { wrongTries: wrong });
    return { started: false, triesLeft: triesLeft(wrong) };
  }
  await transition(ctx, {
    bookingId,
    to: "in_progress",
    actor: "professional",
    actorUser: pro,
    startChecked: true,
  });
  return { started: true };
}

/** The booking's customer starts the job themself, once the professional spent the code's tries. */
export async function confirmStart(
  ctx: MutationCtx,
  customer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null || booking.customerId !== customer._id) fail("NOT_FOUND", NOT_FOUND);
  if (booking.status === "in_progress") return;
  const row = booking.status === "arrived" ? await startCodeOf(ctx, bookingId) : null;
  if (row !== null && !startCodeSpent(row.wrongTries)) {
    fail(
      "START_CODE_ACTIVE",
      `Give the professional the start code on your screen: you start the job yourself only after ${START_CODE.tries} wrong codes.`,
    );
  }
  await transition(ctx, {
    bookingId,
    to: "in_progress",
    actor: "customer",
    actorUser: customer,
    startChecked: booking.status === "arrived",
  });
}
