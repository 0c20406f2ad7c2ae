/** What an admin may set as the site settings: the server checks each change with it, the form too. */
import { z } from "zod";

export const settingsRules = z.object({
  hotline: z
    .string()
    .trim()
    .min(1, "The hotline number is required.")
    .regex(/^\+?[0-9][0-9 -]{4,18}[0-9]$/, "Enter the hotline as a phone number, e.g. 01-5970000."),
  bannerText: z
    .string()
    .trim()
    .min(1, "The banner text is required.")
    .max(300, "The banner text must be 1-300 characters."),
  bannerTextNe: z
    .string()
    .trim()
    .min(1, "The Nepali banner text is required.")
    .max(300, "The Nepali banner text must be 1-300 characters."),
  bookingExpiryMinutes: z
    .number({ error: "Enter a number of minutes." })
    .int("Use whole minutes.")
    .min(5, "At least 5 minutes.")
    .max(1440, "At most 1440 minutes (one day)."),
});
