import { v } from "convex/values";
import { publicMutation } from "./functions";
import { limitContact } from "./model/rateLimit";
import { normalizeEmail } from "./model/users";
import { fail, firstIssue } from "./model/errors";
import { contactMessageRules } from "./rules/contact";

/** The contact form; admins read it through admin:messages. */
export const send = publicMutation({
  args: { name: v.string(), email: v.string(), phone: v.optional(v.string()), message: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const parsed = contactMessageRules.safeParse(args);
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
