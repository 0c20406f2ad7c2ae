/**
 * No-shows (rules/noShow.ts): the customer closes a booking whose professional never came, the
 * professional gets a strike (model/strikes.ts, as for a late cancellation), and enough strikes within
 * the window put them on hold (not bookable, rules/bookability.ts) until an admin reviews them and
 * clears the hold.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { noShowOpensAt } from "../rules/noShow";
import { transition } from "./bookings";
import { fail } from "./errors";
import { updateProfessional } from "./professionalUpdate";
import { getSettings } from "./settings";
import { addStrike, strikesInWindow } from "./strikes";

export async function markNoShow(
  ctx: MutationCtx,
  customer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  const booking = await ctx.db.get("bookings", bookingId);
  // someone else's booking answers as a missing one
  if (booking === null || booking.customerId !== customer._id)
    fail("NOT_FOUND", "This booking was not found.");
  if (booking.status === "no_show") return;
  const now = Date.now();
  const { noShowAfterMinutes } = await getSettings(ctx);
  const opensAt = noShowOpensAt(booking.scheduledFor, noShowAfterMinutes);
  if (now < opensAt && (booking.status === "accepted" || booking.status === "en_route")) {
    fail(
      "NO_SHOW_TOO_EARLY",
      `You can mark a no-show once the professional is ${noShowAfterMinutes} minutes late.`,
      { from: opensAt },
    );
  }
  await transition(ctx, {
    bookingId,
    to: "no_show",
    actor: "customer",
    actorUser: customer,
    reason: `The professional did not arrive within ${noShowAfterMinutes} minutes of the booked time.`,
  });
  await addStrike(ctx, booking, "no_show");
}

/** The admin grid's figure: strikes within the window and whether the professional is on hold. */
export async function strikeCount(ctx: QueryCtx, pro: Doc<"professionals">) {
  const strikes = await strikesInWindow(ctx, pro._id, Date.now());
  return { strikes: strikes.length, held: pro.noShowHold !== undefined };
}

/** The admin's view of a professional's strikes within the window and their hold. */
export async function strikesOf(ctx: QueryCtx, professionalId: Id<"professionals">) {
  const pro = await ctx.db.get("professionals", professionalId);
  if (pro === null) return null;
  const strikes = await strikesInWindow(ctx, professionalId, Date.now());
  return {
    heldSince: pro.noShowHold ?? null,
    strikes: await Promise.all(
      strikes.map(async (s) => {
        const booking = await ctx.db.get("bookings", s.bookingId);
        return {
          at: s._creationTime,
          bookingId: s.bookingId,
          kind: s.kind ?? "no_show",
          scheduledFor: booking?.scheduledFor ?? null,
          services: booking?.services.map((x) => x.name) ?? [],
        };
      }),
    ),
  };
}

/** An admin reviewed the strikes: the hold ends and the strikes it counted no longer count. */
export async function clearHold(ctx: MutationCtx, professionalId: Id<"professionals">) {
  const pro = await ctx.db.get("professionals", professionalId);
  if (pro === null) fail("NOT_FOUND", "This professional was not found.");
  const now = Date.now();
  for (const strike of await strikesInWindow(ctx, professionalId, now))
    await ctx.db.patch("noShowStrikes", strike._id, { clearedAt: now });
  if (pro.noShowHold !== undefined) await updateProfessional(ctx, pro, { noShowHold: undefined });
}
