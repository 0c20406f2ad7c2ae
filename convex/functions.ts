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

/**
 * The signed-in user, or null for a visitor, a user whose account was deleted or suspended, or a token
 * whose auth session has ended: a JWT stays valid until it expires even after sign-out deletes its
 * session, so the session must still exist. Reading it also makes a subscribed query re-run (and see
 * null) at sign-out and at suspension (model/suspension.ts).
 */
export async function getViewer(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const [userId, rawSessionId] = await Promise.all([getAuthUserId(ctx), getAuthSessionId(ctx)]);
  const sessionId = rawSessionId === null ? null : ctx.db.normalizeId("authSessions", rawSessionId);
  if (userId === null || sessionId === null) return null;
  const [user, session] = await Promise.all([
    ctx.db.get("users", userId),
    ctx.db.get("authSessions", sessionId),
  ]);
  return session === null || user?.suspended !== undefined ? null : user;
}

/** The viewer, who must be signed in and, when `roles` are given, hold one of them. */
export async function requireViewer(ctx: QueryCtx, ...roles: Role[]): Promise<Doc<"users">> {
  const viewer = await getViewer(ctx);
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
