/**
 * The only function builders modules use. Each resolves the viewer from the auth session
 * (never from arguments) and checks the role once, before the handler runs — except sharedQuery,
 * which never reads the identity.
 */
import { getAuthSessionId, getAuthUserId } from "@convex-dev/auth/server";
import {
  customAction,
  customCtx,
  customMutation,
  customQuery,
} from "convex-helpers/server/customFunctions";
import { action, mutation, query, type ActionCtx, type QueryCtx } from "./_generated/server";
import type { Doc } from "./_generated/dataModel";
import type { Role } from "./validators";
import { fail } from "./model/errors";
import type { Caller } from "./model/sessions";
import { awaitsTwoFactor, refuseAdminWithoutTwoFactor } from "./model/twoFactor";

/**
 * The user of the auth session, or null for a visitor, a user whose account was deleted or suspended,
 * or a token whose auth session has ended: a JWT stays valid until it expires even after sign-out
 * deletes its session, so the session must still exist. Reading it also makes a subscribed query re-run
 * (and see null) at sign-out and at suspension (model/suspension.ts). Unlike getViewer it still admits
 * an admin who has not set up two-factor: only the `setup…` builders below (and users.apiViewer, which
 * answers the HTTP API's refusal) use it.
 */
export async function getSessionUser(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const [userId, rawSessionId] = await Promise.all([getAuthUserId(ctx), getAuthSessionId(ctx)]);
  const sessionId = rawSessionId === null ? null : ctx.db.normalizeId("authSessions", rawSessionId);
  if (userId === null || sessionId === null) return null;
  const [user, session] = await Promise.all([
    ctx.db.get("users", userId),
    ctx.db.get("authSessions", sessionId),
  ]);
  return session === null || user?.suspended !== undefined ? null : user;
}

/**
 * The signed-in user, or null for a visitor, an ended session, a suspended or deleted account, and an
 * admin who has not set up two-factor (seen as a visitor, with none of an admin's powers).
 */
export async function getViewer(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const user = await getSessionUser(ctx);
  return user === null || (await awaitsTwoFactor(ctx, user)) ? null : user;
}

/**
 * The viewer, who must be signed in and, when `roles` are given, hold one of them. An admin without
 * two-factor is refused TWO_FACTOR_SETUP_REQUIRED.
 */
export async function requireViewer(ctx: QueryCtx, ...roles: Role[]): Promise<Doc<"users">> {
  const viewer = await requireSessionUser(ctx, ...roles);
  await refuseAdminWithoutTwoFactor(ctx, viewer);
  return viewer;
}

async function requireSessionUser(ctx: QueryCtx, ...roles: Role[]): Promise<Doc<"users">> {
  const viewer = await getSessionUser(ctx);
  if (viewer === null) {
    fail("UNAUTHENTICATED", "Please sign in to continue.");
  }
  if (roles.length > 0 && (viewer.role === undefined || !roles.includes(viewer.role))) {
    fail("FORBIDDEN", "You are not allowed to do this.");
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

/*
 * The only functions an admin who has not set up two-factor may call: reading their own profile and
 * session, choosing a language, naming the device, and setting two-factor up. Nothing else may use them.
 */
const withSessionUser = customCtx(async (ctx: QueryCtx) => ({
  viewer: await getSessionUser(ctx),
}));
const withSessionRole = (...roles: Role[]) =>
  customCtx(async (ctx: QueryCtx) => ({ viewer: await requireSessionUser(ctx, ...roles) }));
export const setupPublicQuery = customQuery(query, withSessionUser);
export const setupUserMutation = customMutation(mutation, withSessionRole());
export const setupAdminQuery = customQuery(query, withSessionRole("admin"));
export const setupAdminMutation = customMutation(mutation, withSessionRole("admin"));

async function requireCaller(ctx: ActionCtx): Promise<Caller> {
  const [userId, sessionId] = await Promise.all([getAuthUserId(ctx), getAuthSessionId(ctx)]);
  if (userId === null || sessionId === null) fail("UNAUTHENTICATED", "Please sign in to continue.");
  return { userId, sessionId };
}

/** An action of a signed-in caller; `ctx.caller` holds ids its mutations check. */
export const callerAction = customAction(
  action,
  customCtx(async (ctx: ActionCtx) => ({ caller: await requireCaller(ctx) })),
);
