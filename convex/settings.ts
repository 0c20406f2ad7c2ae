import { v } from "convex/values";
import { publicQuery } from "./functions";
import { getSettings } from "./model/settings";

/** Hotline, banner text (English and Nepali), booking expiry, commission, visit charge, no-show wait and late-cancellation fee, with defaults for anything an admin has not set. */
export const get = publicQuery({
  args: {},
  returns: v.object({
    hotline: v.string(),
    bannerText: v.string(),
    bannerTextNe: v.string(),
    bookingExpiryMinutes: v.number(),
    commissionPercent: v.number(),
    visitChargeNrs: v.number(),
    noShowAfterMinutes: v.number(),
    lateCancelFeeNrs: v.number(),
    dispatchOfferSeconds: v.number(),
    dispatchLimitMinutes: v.number(),
  }),
  handler: async (ctx) => await getSettings(ctx),
});
