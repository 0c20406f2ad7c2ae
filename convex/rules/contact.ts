/** What the contact form accepts: the server parses messages with it and the form checks it before sending. */
import { z } from "zod";
import { emailRule, phoneRule } from "./profile";

export const contactMessageRules = z.object({
  name: z
    .string()
    .trim()
    .min(2, { error: "Please enter your name." })
    .max(80, { error: "The name is too long." }),
  email: emailRule,
  /** Optional: empty or a Nepali number, as on the profile. */
  phone: z.union([z.literal(""), phoneRule]).optional(),
  message: z
    .string()
    .trim()
    .min(5, { error: "Please write a message." })
    .max(2000, { error: "The message may be at most 2000 characters." }),
});
