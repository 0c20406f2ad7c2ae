/** The signed-in professional's earnings (model/earnings.ts): their own only, read from the ledger. */
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { professionalQuery } from "./functions";
import * as Earnings from "./model/earnings";
import { fail } from "./model/errors";
import { professionalOfUser } from "./model/professionalOfUser";
import type { QueryCtx } from "./_generated/server";
import type { Doc } from "./_generated/dataModel";

async function ownProfile(ctx: QueryCtx, viewer: Doc<"users">) {
  const pro = await professionalOfUser(ctx, viewer._id);
  if (pro === null) fail("NOT_FOUND", "Your professional profile was not found.");
  return pro;
}

/** The viewer's jobs, newest first: date, services, gross, commission, net and how it was paid. */
export const jobs = professionalQuery({
  args: { paginationOpts: paginationOptsValidator },
  handler: async (ctx, { paginationOpts }) =>
    await Earnings.jobsPage(ctx, (await ownProfile(ctx, ctx.viewer))._id, paginationOpts),
});

/**
 * The viewer's balance, payouts and net per day for the chart from `since` (the client's Kathmandu
 * midnight 29 days ago, rules/earnings.ts chartStart: queries do not read the clock).
 */
export const summary = professionalQuery({
  args: { since: v.number() },
  handler: async (ctx, { since }) => {
    if (!Number.isSafeInteger(since) || since < 0) fail("INVALID_INPUT", "Bad start of the chart.");
    return await Earnings.summary(ctx, (await ownProfile(ctx, ctx.viewer))._id, since);
  },
});
