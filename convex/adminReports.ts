import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as Reports from "./model/reports";
import { reportStatus } from "./validators";

/** The reports queue: reports in `status`, newest first. */
export const list = adminQuery({
  args: { status: reportStatus, paginationOpts: paginationOptsValidator },
  handler: async (ctx, { status, paginationOpts }) =>
    await Reports.page(ctx, status, paginationOpts),
});

/** Open reports, counted up to 100 (the sidebar shows "99+" beyond). */
export const openCount = adminQuery({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await Reports.openCount(ctx),
});

/** One report with its target: the booking, the review, both parties (and whether they are suspended). */
export const get = adminQuery({
  args: { reportId: v.id("reports") },
  handler: async (ctx, { reportId }) => await Reports.detail(ctx, ctx.viewer, reportId),
});

/**
 * Resolves a report with a note the reporter reads; resolving a resolved report changes nothing.
 * `uphold` on a reported message also stops its sender from writing in that conversation.
 */
export const resolve = adminMutation({
  args: { reportId: v.id("reports"), note: v.string(), uphold: v.optional(v.boolean()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    await Reports.resolve(ctx, ctx.viewer, args);
    return null;
  },
});
