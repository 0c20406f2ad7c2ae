import { v } from "convex/values";
import { z } from "zod";
import { publicMutation } from "./functions";
import { limitContact } from "./model/rateLimit";
import { firstIssue, normalizeEmail } from "./model/users";
import { fail } from "./model/errors";

const message = z.object({
  name: z
    .string()
    .trim()
    .min(2, { error: "Please enter your name." })
    .max(80, { error: "The name is too long." }),
  email: z
    .string()
    .trim()
    .pipe(z.email({ error: "Enter a valid email address." })),
  phone: z
    .string()
    .trim()
    .regex(/^(\+?[0-9][0-9 -]{5,18}[0-9])?$/, {
      error: "Enter a valid phone number, e.g. 9800000000.",
    })
    .optional(),
  message: z
    .string()
    .trim()
    .min(5, { error: "Please write a message." })
    .max(2000, { error: "The message may be at most 2000 characters." }),
});

/** The contact form; admins read it through admin:messages. */
export const send = publicMutation({
  args: { name: v.string(), email: v.string(), phone: v.optional(v.string()), message: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const parsed = message.safeParse(args);
    if (!parsed.success) fail("INVALID_INPUT", firstIssue(parsed.error));
    await limitContact(ctx, ctx.viewer);
    const { phone, ...rest } = parsed.data;
    await ctx.db.insert("contactMessages", {
      ...rest,
      email: normalizeEmail(rest.email),
      ...(phone ? { phone } : {}),
      ...(ctx.viewer !== null ? { userId: ctx.viewer._id } : {}),
    });
    return null;
  },
});
