/** What an admin may set as the site settings: the server checks each change with it, the form too. */
import * as z from "zod/mini";

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
  bookingExpiryMinutes: z
    .number({ error: "Enter a number of minutes." })
    .check(
      z.refine(Number.isInteger, "Use whole minutes."),
      z.minimum(5, "At least 5 minutes."),
      z.maximum(1440, "At most 1440 minutes (one day)."),
    ),
  commissionPercent: z
    .number({ error: "Enter the commission in percent." })
    .check(
      z.refine(Number.isInteger, "Use a whole percent."),
      z.minimum(0, "At least 0%."),
      z.maximum(50, "At most 50%."),
    ),
  visitChargeNrs: z
    .number({ error: "Enter the visit charge in rupees." })
    .check(
      z.refine(Number.isInteger, "Use whole rupees."),
      z.minimum(0, "At least Nrs. 0."),
      z.maximum(5000, "At most Nrs. 5,000."),
    ),
});
