import type { Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";

/** The professional profile of a user, or null for a customer or an admin. */
export async function professionalOfUser(ctx: QueryCtx, userId: Id<"users">) {
  return await ctx.db
    .query("professionals")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .unique();
}
