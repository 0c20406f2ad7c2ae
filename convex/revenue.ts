/** The admin's revenue view (model/revenue.ts). */
import { v } from "convex/values";
import { adminQuery } from "./functions";
import { fail } from "./model/errors";
import { revenue } from "./model/revenue";
import { boundsProblem } from "./rules/revenue";

/**
 * Completed jobs, gross (by eSewa/Khalti and by cash), commission, late-cancellation fees (and the
 * platform's share of them) and refunds per period between `bounds` (Kathmandu days, months or
 * Bikram Sambat months the page computes: rules/revenue.ts; queries do not read the clock).
 */
export const summary = adminQuery({
  args: { bounds: v.array(v.number()) },
  handler: async (ctx, { bounds }) => {
    const problem = boundsProblem(bounds);
    if (problem !== null) fail("INVALID_INPUT", problem);
    return await revenue(ctx, bounds);
  },
});
