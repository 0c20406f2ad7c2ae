/**
 * The database side of a password sign-in (auth.ts `signInFlow` hashes in between, in its action,
 * never inside a transaction): count the try, read the account's hash; after the right password,
 * start the count again and store a hash made as today's are, when it was made otherwise.
 */
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { internalMutation, type QueryCtx } from "./_generated/server";
import { clearSignInTries, limitSignIn } from "./model/rateLimit";
import { userByPhone } from "./model/users";
import { parseContact } from "./rules/accountCodes";

const provider = v.union(v.literal("customer"), v.literal("professional"), v.literal("admin"));
type Provider = typeof provider.type;

/**
 * The provider's account that `account` names: its id (an email, an admin's username) or, for a
 * customer or professional, the Nepali mobile number of its user (a number belongs to one user).
 */
async function accountNamed(
  ctx: QueryCtx,
  provider: Provider,
  account: string,
): Promise<Doc<"authAccounts"> | null> {
  const contact = provider === "admin" ? null : parseContact(account);
  if (contact?.kind === "phone") {
    const user = await userByPhone(ctx, contact.value);
    if (user === null) return null;
    return await ctx.db
      .query("authAccounts")
      .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id).eq("provider", provider))
      .unique();
  }
  return await ctx.db
    .query("authAccounts")
    .withIndex("providerAndAccountId", (q) =>
      q.eq("provider", provider).eq("providerAccountId", account),
    )
    .unique();
}

/**
 * Counts the try (also for an unknown account); the account's password hash and its user's role and
 * suspension, or null. auth.ts acts on the user only after the password matched.
 */
export const start = internalMutation({
  args: { provider, account: v.string() },
  returns: v.union(
    v.null(),
    v.object({
      accountId: v.id("authAccounts"),
      userId: v.id("users"),
      hash: v.string(),
      role: v.optional(v.string()),
      suspended: v.boolean(),
    }),
  ),
  handler: async (ctx, { provider, account }) => {
    await limitSignIn(ctx, account);
    const row = await accountNamed(ctx, provider, account);
    const user = row === null ? null : await ctx.db.get("users", row.userId);
    if (row === null || user === null) return null;
    return {
      accountId: row._id,
      userId: user._id,
      hash: row.secret ?? "",
      role: user.role,
      suspended: user.suspended !== undefined,
    };
  },
});

/** The right password: its tries start again; `rehash` replaces the hash it was checked against. */
export const succeeded = internalMutation({
  args: {
    account: v.string(),
    rehash: v.optional(
      v.object({ accountId: v.id("authAccounts"), from: v.string(), to: v.string() }),
    ),
  },
  returns: v.null(),
  handler: async (ctx, { account, rehash }) => {
    await clearSignInTries(ctx, account);
    if (rehash !== undefined) {
      const row = await ctx.db.get("authAccounts", rehash.accountId);
      // a password changed meanwhile keeps its own hash
      if (row?.secret === rehash.from)
        await ctx.db.patch("authAccounts", rehash.accountId, { secret: rehash.to });
    }
    return null;
  },
});
