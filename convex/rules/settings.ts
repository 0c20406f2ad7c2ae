/** What an admin may set as the site settings: the server checks each change with it, the form too. */
import * as z from "zod/mini";
import { LATE_CANCEL_FEE_NRS } from "./cancellation";

/** A whole number between `min` and `max`, each with the message shown when it is crossed. */
function wholeNumber(
  required: string,
  whole: string,
  { min, max }: { min: [number, string]; max: [number, string] },
) {
  return z
    .number({ error: required })
    .check(z.refine(Number.isInteger, whole), z.minimum(min[0], min[1]), z.maximum(max[0], max[1]));
}

export const settingsRules = z.object({
  hotline: z
    .string({ error: "The hotline number is required." })
    .check(
      z.trim(),
      z.minLength(1, "The hotline number is required."),
      z.regex(
        /^\+?[0-9][0-9 -]{4,18}[0-9]$/,
        "Enter the hotline as a phone number, e.g. 01-5970000.",
      ),
    ),
  bannerText: z
    .string({ error: "The banner text is required." })
    .check(
      z.trim(),
      z.minLength(1, "The banner text is required."),
      z.maxLength(300, "The banner text must be 1-300 characters."),
    ),
  bannerTextNe: z
    .string({ error: "The Nepali banner text is required." })
    .check(
      z.trim(),
      z.minLength(1, "The Nepali banner text is required."),
      z.maxLength(300, "The Nepali banner text must be 1-300 characters."),
    ),
  bookingExpiryMinutes: wholeNumber("Enter a number of minutes.", "Use whole minutes.", {
    min: [5, "At least 5 minutes."],
    max: [1440, "At most 1440 minutes (one day)."],
  }),
  commissionPercent: wholeNumber("Enter the commission in percent.", "Use a whole percent.", {
    min: [0, "At least 0%."],
    max: [50, "At most 50%."],
  }),
  noShowAfterMinutes: wholeNumber("Enter a number of minutes.", "Use whole minutes.", {
    min: [10, "At least 10 minutes."],
    max: [240, "At most 240 minutes (four hours)."],
  }),
  visitChargeNrs: wholeNumber("Enter the visit charge in rupees.", "Use whole rupees.", {
    min: [0, "At least Nrs. 0."],
    max: [5000, "At most Nrs. 5,000."],
  }),
  lateCancelFeeNrs: wholeNumber("Enter the fee in rupees.", "Use whole rupees.", {
    min: [LATE_CANCEL_FEE_NRS.min, `At least Nrs. ${LATE_CANCEL_FEE_NRS.min}.`],
    max: [LATE_CANCEL_FEE_NRS.max, `At most Nrs. ${LATE_CANCEL_FEE_NRS.max.toLocaleString("en")}.`],
  }),
  dispatchOfferSeconds: wholeNumber("Enter a number of seconds.", "Use whole seconds.", {
    min: [15, "At least 15 seconds."],
    max: [600, "At most 600 seconds."],
  }),
  dispatchLimitMinutes: wholeNumber("Enter a number of minutes.", "Use whole minutes.", {
    min: [1, "At least 1 minute."],
    max: [60, "At most 60 minutes."],
  }),
});
