import { createAccount } from "@convex-dev/auth/server";
import { ConvexError, v } from "convex/values";
import { internal } from "./_generated/api";
import type { ActionCtx } from "./_generated/server";
import { internalAction, internalQuery } from "./_generated/server";
import { adminCredentials, usernameTaken } from "./model/users";

const credentials = v.object({ username: v.string(), password: v.string() });

async function createAdminAccount(ctx: ActionCtx, args: { username: string; password?: string }) {
  const { username, password } = adminCredentials(args);
  try {
    await createAccount(ctx, {
      provider: "admin",
      account: { id: username, secret: password },
      profile: { username, name: "Administrator" } as never, // read by createOrUpdateUser in auth.ts
    });
  } catch (error) {
    if (error instanceof ConvexError) throw error;
    if (error instanceof Error && /already exists/.test(error.message)) throw usernameTaken();
    throw error;
  }
  return { username, password };
}

/**
 * Creates an admin (`npm run create-admin -- <username> [password]`); a random password is generated
 * when none is given. Returns the credentials; printing them is the caller's business.
 */
export const createAdmin = internalAction({
  args: { username: v.string(), password: v.optional(v.string()) },
  returns: credentials,
  handler: async (ctx, args) => await createAdminAccount(ctx, args),
});

/** For `seed:init`: on a database without admins, creates "admin" with a random password and returns it once. */
export const ensureFirstAdmin = internalAction({
  args: {},
  returns: v.union(credentials, v.null()),
  handler: async (ctx) => {
    if (await ctx.runQuery(internal.admin.hasAdmin, {})) return null;
    try {
      return await createAdminAccount(ctx, { username: "admin" });
    } catch (error) {
      // Another first start won the race.
      if (error instanceof ConvexError && (error.data as { code?: string }).code === "USERNAME_TAKEN") return null;
      throw error;
    }
  },
});

export const hasAdmin = internalQuery({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) =>
    (await ctx.db
      .query("users")
      .withIndex("by_role", (q) => q.eq("role", "admin"))
      .first()) !== null,
});
