/**
 * A professional's strikes (rules/noShow.ts): one for each booking they never came to (a no-show,
 * model/noShows.ts) or called off once on the way (a late cancellation, rules/cancellation.ts).
 * Enough strikes within the window put them on hold until an admin has reviewed them.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { NO_SHOW, strikesHold } from "../rules/noShow";
import { updateProfessional } from "./professionalUpdate";

/** Strikes read at most: the window's, newest first. */
const STRIKES_SHOWN = 20;

export async function strikesInWindow(
  ctx: QueryCtx,
  professionalId: Id<"professionals">,
  now: number,
) {
  const rows = await ctx.db
    .query("noShowStrikes")
    .withIndex("by_professionalId", (q) =>
      q.eq("professionalId", professionalId).gt("_creationTime", now - NO_SHOW.windowMs),
    )
    .order("desc")
    .take(STRIKES_SHOWN);
  return rows.filter((s) => s.clearedAt === undefined);
}

/** Gives the professional of `booking` a strike, and puts them on hold if it is one too many. */
export async function addStrike(
  ctx: MutationCtx,
  booking: Doc<"bookings">,
  kind: "no_show" | "late_cancel",
): Promise<void> {
  await ctx.db.insert("noShowStrikes", {
    professionalId: booking.professionalId,
    bookingId: booking._id,
    ...(kind === "late_cancel" ? { kind } : {}),
  });
  const pro = await ctx.db.get("professionals", booking.professionalId);
  if (pro === null || pro.noShowHold !== undefined) return;
  const now = Date.now();
  if (strikesHold((await strikesInWindow(ctx, pro._id, now)).length))
    await updateProfessional(ctx, pro, { noShowHold: now });
}
