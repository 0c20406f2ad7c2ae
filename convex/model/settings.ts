/** Site settings an admin edits and the landing page reads; missing keys fall back to the defaults. */
import type { MutationCtx, QueryCtx } from "../_generated/server";
import * as z from "zod/mini";
import { settingsRules } from "../rules/settings";
import { NO_SHOW } from "../rules/noShow";
import { LATE_CANCEL_FEE_NRS } from "../rules/cancellation";
import { fail, firstIssue } from "./errors";

export const DEFAULT_SETTINGS = {
  hotline: "01-5970000",
  // no dated greeting: a default must not go stale (an admin writes seasonal ones)
  bannerText:
    "GharSewa is in its testing phase - thank you for trying it! Tell us what would make it better.",
  /** The banner as Nepali readers see it. */
  bannerTextNe:
    "घर सेवा अहिले परीक्षणको चरणमा छ — प्रयोग गरिदिनुभएकोमा धन्यवाद! यसलाई अझ राम्रो बनाउन के चाहिन्छ, हामीलाई भन्नुहोस्।",
  bookingExpiryMinutes: 30,
  /** The platform's share of every completed job, cash jobs too (rules/money.ts commissionOf). */
  commissionPercent: 10,
  /** Added to every booking's bill as its visit line, in whole rupees; 0 for none. */
  visitChargeNrs: 0,
  /** What a customer who cancels once the professional is on the way owes (rules/cancellation.ts). */
  lateCancelFeeNrs: LATE_CANCEL_FEE_NRS.default,
  /** How long after the booked time a customer may mark a no-show (rules/noShow.ts). */
  noShowAfterMinutes: NO_SHOW.defaultAfterMinutes,
  /** "Nearest available now": how long each professional has to answer an offer. */
  dispatchOfferSeconds: 90,
  /** ... and how long the whole search may take before the customer is told nobody accepted. */
  dispatchLimitMinutes: 10,
};
export type Settings = typeof DEFAULT_SETTINGS;
type Key = keyof Settings;
const KEYS = Object.keys(DEFAULT_SETTINGS) as Key[];

async function row(ctx: QueryCtx, key: Key) {
  return await ctx.db
    .query("settings")
    .withIndex("by_key", (q) => q.eq("key", key))
    .unique();
}

export async function getSettings(ctx: QueryCtx): Promise<Settings> {
  const rows = await Promise.all(KEYS.map((key) => row(ctx, key)));
  const stored = (key: Key) => rows[KEYS.indexOf(key)]?.value;
  const text = (key: "hotline" | "bannerText" | "bannerTextNe") => {
    const value = stored(key);
    return typeof value === "string" && value.trim() !== "" ? value : DEFAULT_SETTINGS[key];
  };
  const whole = (
    key: "commissionPercent" | "visitChargeNrs" | "noShowAfterMinutes" | "lateCancelFeeNrs",
  ) => {
    const value = Number(stored(key) ?? DEFAULT_SETTINGS[key]);
    return Number.isInteger(value) && value >= 0 ? value : DEFAULT_SETTINGS[key];
  };
  const positive = (
    key: "bookingExpiryMinutes" | "dispatchOfferSeconds" | "dispatchLimitMinutes",
  ) => {
    const value = Number(stored(key));
    return Number.isInteger(value) && value > 0 ? value : DEFAULT_SETTINGS[key];
  };
  return {
    hotline: text("hotline"),
    bannerText: text("bannerText"),
    bannerTextNe: text("bannerTextNe"),
    bookingExpiryMinutes: positive("bookingExpiryMinutes"),
    commissionPercent: whole("commissionPercent"),
    visitChargeNrs: whole("visitChargeNrs"),
    noShowAfterMinutes: whole("noShowAfterMinutes"),
    lateCancelFeeNrs: whole("lateCancelFeeNrs"),
    dispatchOfferSeconds: positive("dispatchOfferSeconds"),
    dispatchLimitMinutes: positive("dispatchLimitMinutes"),
  };
}

/** Validates and stores the given settings (others unchanged). */
export async function updateSettings(ctx: MutationCtx, changes: Partial<Settings>): Promise<void> {
  const parsed = z.partial(settingsRules).safeParse(changes);
  if (!parsed.success) fail("INVALID_INPUT", firstIssue(parsed.error));
  const next: Partial<Settings> = parsed.data;
  for (const key of KEYS) {
    const value = next[key];
    if (value === undefined) continue;
    const existing = await row(ctx, key);
    if (existing === null) await ctx.db.insert("settings", { key, value });
    else await ctx.db.patch("settings", existing._id, { value });
  }
}
