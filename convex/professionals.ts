import { v } from "convex/values";
import { professionalMutation, professionalQuery, publicQuery } from "./functions";
import { forProfessional as recentReviews } from "./model/reviews";
import { resolveCity } from "./model/catalog";
import { card, dashboard, professionalOfUser, ratingOf, search as searchProfessionals } from "./model/professionals";
import { resolveSpecialty } from "./model/users";
import { ConvexError } from "convex/values";

const point = v.object({ lat: v.number(), lng: v.number() });

/**
 * Professionals of a specialty in a city (slugs, display names or the spec's legacy spellings):
 * verified and available first, then by rating, then by distance from `near`.
 */
export const search = publicQuery({
  args: { specialty: v.string(), city: v.string(), near: v.optional(point) },
  handler: async (ctx, args) => {
    const specialty = resolveSpecialty(args.specialty);
    const city = resolveCity(args.city);
    if (specialty === null || city === null) return [];
    const near = args.near;
    const valid = near !== undefined && Math.abs(near.lat) <= 90 && Math.abs(near.lng) <= 180;
    return await searchProfessionals(ctx, { specialty, city, ...(valid ? { near } : {}) });
  },
});

/** A professional's public profile; rejected profiles only to their owner and admins. */
export const get = publicQuery({
  args: { professionalId: v.id("professionals") },
  handler: async (ctx, { professionalId }) => {
    const pro = await ctx.db.get("professionals", professionalId);
    if (pro === null) return null;
    const privileged = ctx.viewer !== null && (ctx.viewer.role === "admin" || ctx.viewer._id === pro.userId);
    if (pro.verification.status === "rejected" && !privileged) return null;
    return {
      ...(await card(ctx, pro)),
      state: pro.state,
      locations: pro.locations,
      reviews: { ...ratingOf(pro), recent: (await recentReviews(ctx, pro._id)).slice(0, 5) },
    };
  },
});

/** The signed-in professional's dashboard profile (documents included). */
export const me = professionalQuery({
  args: {},
  handler: async (ctx) => {
    const pro = await professionalOfUser(ctx, ctx.viewer._id);
    return pro === null ? null : await dashboard(ctx, ctx.viewer, pro);
  },
});

export const setAvailability = professionalMutation({
  args: { available: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { available }) => {
    const pro = await professionalOfUser(ctx, ctx.viewer._id);
    if (pro === null) throw new ConvexError({ code: "NOT_FOUND", message: "Your professional profile was not found." });
    await ctx.db.patch("professionals", pro._id, { available });
    return null;
  },
});
