import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

/** Every booking change and account event reaches its user through this one helper. */
export async function notify(
  ctx: MutationCtx,
  n: { userId: Id<"users">; kind: string; title: string; body: string; bookingId?: Id<"bookings"> },
): Promise<Id<"notifications">> {
  return await ctx.db.insert("notifications", n);
}
