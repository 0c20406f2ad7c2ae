/** Admins settle disputed cash payments (model/cashDisputes.ts). */
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as CashDisputes from "./model/cashDisputes";
import { disputeOutcome } from "./validators";

/** Cash payments their customers disputed and no admin has settled, oldest first. */
export const open = adminQuery({
  args: {},
  handler: async (ctx) => await CashDisputes.openDisputes(ctx),
});

/**
 * Settles the cash dispute of report `reportId`: "paid" books the cash as confirmed, "waived" books
 * nothing; the report is resolved with `reason` and both sides are told.
 */
export const settle = adminMutation({
  args: { reportId: v.id("reports"), outcome: disputeOutcome, reason: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await CashDisputes.settle(ctx, ctx.viewer, args);
    return null;
  },
});
