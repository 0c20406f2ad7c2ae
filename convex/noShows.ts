import { v } from "convex/values";
import { adminMutation, adminQuery } from "./functions";
import * as NoShows from "./model/noShows";

/** A professional's no-show strikes within the window and whether they are on hold (rules/noShow.ts). */
export const forProfessional = adminQuery({
  args: { professionalId: v.id("professionals") },
  handler: (ctx, { professionalId }) => NoShows.strikesOf(ctx, professionalId),
});

/** The admin reviewed the strikes: the professional is bookable again. */
export const clearHold = adminMutation({
  args: { professionalId: v.id("professionals") },
  returns: v.null(),
  handler: async (ctx, { professionalId }) => {
    await NoShows.clearHold(ctx, professionalId);
    return null;
  },
});
