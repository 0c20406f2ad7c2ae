/**
 * The only function builders modules use. Each resolves the viewer from the auth session
 * (never from arguments) and checks the role once, before the handler runs — except sharedQuery,
 * which never reads the identity.
 */
import { getAuthSessionId, getAuthUserId } from "@convex-dev/auth/server";
import { customCtx, customMutation, customQuery } from "convex-helpers/server/customFunctions";
import { ConvexError } from "convex/values";
import { mutation, query, type QueryCtx } from "./_generated/server";
import type { Doc } from "./_generated/dataModel";
import type { Role } from "./validators";

/** The signed-in user, or null for a visitor (or a user whose account was deleted). */
export async function getViewer(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const userId = await getAuthUserId(ctx);
  return userId === null ? null : await ctx.db.get("users", userId);
}

/**
 * The signed-in user whose auth session still exists, or null. A JWT stays valid until it expires even
 * after sign-out ends its session, so the HTTP API (bearer tokens, POST /api/signout) checks this.
 */
export async function getSessionViewer(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const [viewer, rawSessionId] = await Promise.all([getViewer(ctx), getAuthSessionId(ctx)]);
  const sessionId = rawSessionId === null ? null : ctx.db.normalizeId("authSessions", rawSessionId);
  if (viewer === null || sessionId === null || (await ctx.db.get("authSessions", sessionId)) === null) return null;
  return viewer;
}

/** requireViewer for the HTTP API's internal functions: the token's session must still exist. */
export async function requireSessionViewer(ctx: QueryCtx, ...roles: Role[]): Promise<Doc<"users">> {
  return checkRole(await getSessionViewer(ctx), roles);
}

export async function requireViewer(ctx: QueryCtx, ...roles: Role[]): Promise<Doc<"users">> {
  return checkRole(await getViewer(ctx), roles);
}

function checkRole(viewer: Doc<"users"> | null, roles: Role[]): Doc<"users"> {
  if (viewer === null) {
    throw new ConvexError({ code: "UNAUTHENTICATED", message: "Please sign in to continue." });
  }
  if (roles.length > 0 && (viewer.role === undefined || !roles.includes(viewer.role))) {
    throw new ConvexError({ code: "FORBIDDEN", message: "You are not allowed to do this." });
  }
  return viewer;
}

const withViewer = customCtx(async (ctx: QueryCtx) => ({ viewer: await getViewer(ctx) }));
const withRole = (...roles: Role[]) =>
  customCtx(async (ctx: QueryCtx) => ({ viewer: await requireViewer(ctx, ...roles) }));

/** Anyone, signed in or not; `ctx.viewer` may be null. */
export const publicQuery = customQuery(query, withViewer);
export const publicMutation = customMutation(mutation, withViewer);

/**
 * Anyone, and no viewer: the result is the same for every caller, so the backend shares one run among
 * all subscribers of the same arguments (a run that reads the identity is cached per caller).
 */
export const sharedQuery = query;

/** Any signed-in user. */
export const userQuery = customQuery(query, withRole());
export const userMutation = customMutation(mutation, withRole());

export const customerQuery = customQuery(query, withRole("customer"));
export const customerMutation = customMutation(mutation, withRole("customer"));

export const professionalQuery = customQuery(query, withRole("professional"));
export const professionalMutation = customMutation(mutation, withRole("professional"));

export const adminQuery = customQuery(query, withRole("admin"));
export const adminMutation = customMutation(mutation, withRole("admin"));
