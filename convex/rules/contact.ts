/** What the contact form accepts: the server parses messages with it and the form checks it before sending. */
import * as z from "zod/mini";
import { emailRule, phoneRule } from "./profile";

export const contactMessageRules = z.object({
  name: z
    .string({ error: "Please enter your name." })
    .check(
      z.trim(),
      z.minLength(2, { error: "Please enter your name." }),
      z.maxLength(80, { error: "The name is too long." }),
    ),
  email: emailRule,
  /** Optional: empty or a Nepali number, as on the profile. */
  phone: z.optional(z.union([z.literal(""), phoneRule])),
  message: z
    .string({ error: "Please write a message." })
    .check(
      z.trim(),
      z.minLength(5, { error: "Please write a message." }),
      z.maxLength(2000, { error: "The message may be at most 2000 characters." }),
    ),
});
