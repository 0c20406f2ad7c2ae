/**
 * Request limits for calls visitors can make, in fixed one-minute windows kept in the `rateLimits`
 * table (one row per limited action and caller, overwritten as windows pass). Signed-in users each
 * have their own allowance; visitors carry no identity a mutation could tell apart, so they share one
 * generous allowance that only a flood exhausts.
 *
 * (@convex-dev/rate-limiter is a Convex component, which the offline local backend cannot run.
 * Failed password attempts are limited per account by @convex-dev/auth itself, in its authRateLimits.)
 */
import { ConvexError } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

export const WINDOW_MS = 60_000;

/** Calls per window: per signed-in user, and for all visitors together. */
export const LIMITS = {
  // a professional's sign-up uploads 4 files (photo and 3 documents), and may retry some
  upload: { perUser: 20, visitors: 120 },
  contact: { perUser: 5, visitors: 30 },
  // always visitors; each sign-up hashes a password (~0.5 s of CPU), so a flood is also a load attack
  signUp: { perUser: 30, visitors: 30 },
} satisfies Record<string, { perUser: number; visitors: number }>;

/** Counts one call by `viewer` (null: a visitor) against `action`'s limit; throws RATE_LIMITED over it. */
export async function rateLimit(
  ctx: MutationCtx,
  action: keyof typeof LIMITS,
  viewer: Doc<"users"> | null,
): Promise<void> {
  const key = `${action}:${viewer?._id ?? "visitors"}`;
  const max = viewer === null ? LIMITS[action].visitors : LIMITS[action].perUser;
  const now = Date.now();
  const row = await ctx.db
    .query("rateLimits")
    .withIndex("by_key", (q) => q.eq("key", key))
    .unique();
  if (row === null) {
    await ctx.db.insert("rateLimits", { key, windowStart: now, count: 1 });
  } else if (now - row.windowStart >= WINDOW_MS) {
    await ctx.db.patch("rateLimits", row._id, { windowStart: now, count: 1 });
  } else if (row.count < max) {
    await ctx.db.patch("rateLimits", row._id, { count: row.count + 1 });
  } else {
    throw new ConvexError({ code: "RATE_LIMITED", message: "Too many requests, please try again in a minute." });
  }
}
