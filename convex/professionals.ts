import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  internalAction,
  internalMutation,
  internalQuery,
  type QueryCtx,
} from "./_generated/server";
import { professionalMutation, professionalQuery, publicQuery } from "./functions";
import { workingHoursRule, type WorkingHours } from "./rules/schedule";
import { workingHours } from "./validators";
import {
  distribution as reviewDistribution,
  forProfessional as recentReviews,
} from "./model/reviews";
import { resolveCity } from "./model/catalog";
import {
  documentKind,
  firstRefusedDocument,
  refuseDocument as refuseResubmittedDocument,
  replaceDocuments,
  replacedDocument,
} from "./model/professionalDocuments";
import {
  dashboard,
  profileFor,
  publicStats,
  search as searchProfessionals,
} from "./model/professionals";
import { updateProfessional } from "./model/professionalUpdate";
import { ratingOf } from "./rules/searchRank";
import { resolveSpecialty } from "./model/users";
import { professionalOfUser } from "./model/professionalOfUser";
import { refreshMarker } from "./model/mapMarkers";
import { fail } from "./model/errors";

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

/** The search for the REST API (GET /api/technicians/search): the same rows visitors get. */
export const searchForApi = internalQuery({
  args: { specialty: v.string(), city: v.string() },
  handler: async (ctx, args) => {
    const specialty = resolveSpecialty(args.specialty);
    const city = resolveCity(args.city);
    if (specialty === null || city === null) return [];
    return await searchProfessionals(ctx, { specialty, city });
  },
});

/**
 * A professional's profile: verified and unverified ones (as search lists them) to everyone, rejected
 * ones only to their owner and admins (null otherwise, as for an unknown id); address, zip code and phone only where model/professionals.ts
 * profileFor allows.
 */
export const get = publicQuery({
  args: { professionalId: v.id("professionals") },
  handler: async (ctx, { professionalId }) => {
    const pro = await ctx.db.get("professionals", professionalId);
    const profile = pro === null ? null : await profileFor(ctx, ctx.viewer, pro);
    if (pro === null || profile === null) return null;
    const [recent, distribution, stats] = await Promise.all([
      recentReviews(ctx, pro._id),
      reviewDistribution(ctx, pro._id),
      publicStats(ctx, pro),
    ]);
    return {
      ...profile,
      ...stats,
      reviews: { ...ratingOf(pro), distribution, recent: recent.slice(0, 5) },
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

async function ownProfile(ctx: QueryCtx, userId: Id<"users">) {
  const pro = await professionalOfUser(ctx, userId);
  if (pro === null) fail("NOT_FOUND", "Your professional profile was not found.");
  return pro;
}

export const setAvailability = professionalMutation({
  args: { available: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { available }) => {
    const pro = await ownProfile(ctx, ctx.viewer._id);
    await updateProfessional(ctx, pro, { available });
    await refreshMarker(ctx, pro._id);
    return null;
  },
});

/** The hours customers may book the signed-in professional for (rules/schedule.ts); null: any time. */
export const setWorkingHours = professionalMutation({
  args: { hours: v.union(workingHours, v.null()) },
  returns: v.null(),
  handler: async (ctx, { hours }) => {
    const pro = await ownProfile(ctx, ctx.viewer._id);
    let checked: WorkingHours | undefined;
    if (hours !== null) {
      const parsed = workingHoursRule.safeParse(hours);
      if (!parsed.success) fail("INVALID_INPUT", parsed.error.issues[0].message);
      checked = { ...parsed.data, days: [...parsed.data.days].sort((a, b) => a - b) };
    }
    await ctx.db.patch("professionals", pro._id, { workingHours: checked });
    return null;
  },
});

const newDocument = v.optional(v.id("_storage"));

/**
 * Replaces any of the signed-in professional's documents with new uploads (files:generateUploadUrl)
 * and puts the profile back in the admins' review queue (unverified, note cleared). Refused once verified.
 */
export const resubmitDocuments = professionalMutation({
  args: {
    citizenshipFront: newDocument,
    citizenshipBack: newDocument,
    trainingCertificate: newDocument,
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const pro = await ownProfile(ctx, ctx.viewer._id);
    const replaced = await replaceDocuments(ctx, pro, args);
    await ctx.scheduler.runAfter(0, internal.professionals.checkDocuments, {
      professionalId: pro._id,
      replaced,
    });
    return null;
  },
});

/** Reads the bytes of re-submitted documents; a file that is not an image is deleted and the profile rejected. */
export const checkDocuments = internalAction({
  args: { professionalId: v.id("professionals"), replaced: v.array(replacedDocument) },
  returns: v.null(),
  handler: async (ctx, { professionalId, replaced }) => {
    const refused = await firstRefusedDocument(ctx, replaced);
    if (refused !== null)
      await ctx.runMutation(internal.professionals.refuseDocument, { professionalId, ...refused });
    return null;
  },
});

export const refuseDocument = internalMutation({
  args: {
    professionalId: v.id("professionals"),
    kind: documentKind,
    storageId: v.id("_storage"),
    reason: v.string(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await refuseResubmittedDocument(ctx, args);
    return null;
  },
});
